#!/bin/sh
# Builds the console from its sources with the locked packages, in WORK_DIR (a copy of the
# sources: the source tree is not touched), and compares the result with the committed
# server/console/dist that the binary embeds. Fails, listing the differences, when they differ:
# run `npm ci && npm run build` in server/console and commit dist/.
# Usage: check_build.sh WORK_DIR
set -e
src=$(cd "$(dirname "$0")" && pwd)
work=$1
[ -n "$work" ] || { echo "usage: check_build.sh WORK_DIR" >&2; exit 2; }
mkdir -p "$work"
rm -rf "$work/src" "$work/dist"
cp -R "$src/src" "$work/src"
cp "$src/index.html" "$src/vite.config.js" "$work/"
if ! cmp -s "$src/package-lock.json" "$work/package-lock.json" || [ ! -d "$work/node_modules" ]; then
  cp "$src/package.json" "$src/package-lock.json" "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error)
fi
(cd "$work" && npx --no-install vite build --logLevel error)
if diff -r "$work/dist" "$src/dist"; then
  echo "server/console/dist is what the sources build to"
else
  echo "server/console/dist is out of date: run 'npm ci && npm run build' in server/console and commit dist/" >&2
  exit 1
fi
