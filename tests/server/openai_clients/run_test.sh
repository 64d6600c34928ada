#!/bin/sh
# ctest entry of the OpenAI-compatible client tests: installs the pinned clients
# (package-lock.json, `npm ci`) into tests/server/openai_clients/node_modules when missing or
# when the lock file changed, then runs one client's test script.
# Usage: run_test.sh install | run_test.sh SCRIPT.mjs STRUCTURE_BINARY
set -e
dir=$(cd "$(dirname "$0")" && pwd)
if [ "$1" = install ]; then
  if ! cmp -s "$dir/package-lock.json" "$dir/node_modules/.installed-lock.json" 2>/dev/null; then
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
    cp "$dir/package-lock.json" "$dir/node_modules/.installed-lock.json"
  fi
  exit 0
fi
script=$1
shift
exec node "$dir/$script" "$@"
