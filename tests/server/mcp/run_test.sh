#!/bin/sh
# ctest entry of the MCP SDK test: installs the pinned SDK (package-lock.json) into
# tests/server/mcp/node_modules when missing, then runs the test script.
# Usage: run_test.sh STRUCTURE_BINARY SCENARIO_FILE [SIM_BASE_URL]
set -e
dir=$(dirname "$0")
if [ ! -f "$dir/node_modules/@modelcontextprotocol/sdk/package.json" ]; then
  (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
fi
exec node "$dir/mcp_sdk_test.mjs" "$@"
