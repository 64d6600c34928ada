#!/bin/sh
# ctest entry of the OpenAI-compatible client tests: installs the pinned clients
# (package-lock.json, `npm ci`) into tests/server/openai_clients/node_modules, and those of
# agents/ (the OpenAI Agents SDK, which needs zod 4) into agents/node_modules, when missing or
# when a lock file changed, then runs one client's test script.
# Usage: run_test.sh install | run_test.sh SCRIPT.mjs STRUCTURE_BINARY (agents/agents_test.mjs)
set -e
dir=$(cd "$(dirname "$0")" && pwd)
if [ "$1" = install ]; then
  for d in "$dir" "$dir/agents"; do
    if ! cmp -s "$d/package-lock.json" "$d/node_modules/.installed-lock.json" 2>/dev/null; then
      (cd "$d" && npm ci --no-audit --no-fund --loglevel=error)
      cp "$d/package-lock.json" "$d/node_modules/.installed-lock.json"
    fi
  done
  exit 0
fi
script=$1
shift
exec node "$dir/$script" "$@"
