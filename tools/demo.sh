#!/usr/bin/env bash
# The README's main job. Until the batch demo exists it checks the example config.
set -euo pipefail
bin="${1:-build/release/apps/structure}"
cd "$(dirname "$0")/.."
echo "structure demo (SIMULATED provider: no real LLM is called)"
"$bin" version
"$bin" config check examples/structure.toml
