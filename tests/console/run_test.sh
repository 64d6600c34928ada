#!/bin/sh
# ctest entry of the console's browser test: installs puppeteer-core and axe-core from
# package-lock.json into tests/console/node_modules when missing (puppeteer-core downloads no
# browser: the test drives Debian's chromium), then runs the test.
# Usage: run_test.sh STRUCTURE_BINARY REPO_DIR SCREENSHOT_DIR
set -e
dir=$(dirname "$0")
if [ ! -f "$dir/node_modules/puppeteer-core/package.json" ] || [ ! -f "$dir/node_modules/axe-core/axe.min.js" ]; then
  (cd "$dir" && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)
fi
exec node "$dir/console_test.mjs" "$@"
