#!/usr/bin/env bash
# The README's main job (`make demo`): a bulk job of realistic records against the bundled
# schemas, run by `structure batch` against the provider SIMULATOR on loopback. Builds
# nothing: $1 is the structure binary (default build/release/apps/structure).
set -euo pipefail
bin="${1:-build/release/apps/structure}"
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
cd "$(dirname "$0")/.."
if [ ! -x "$bin" ]; then
  echo "demo: $bin is not an executable; build it first (make demo does)" >&2
  exit 2
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/structure-demo.XXXXXX")"
sim_pid=""
cleanup() {
  if [ -n "$sim_pid" ]; then
    kill "$sim_pid" 2>/dev/null || true
    wait "$sim_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

banner() { printf '\n==== %s ====\n' "$*"; }

banner "SIMULATED provider: no real LLM is called, answers come from examples/demo/scenario.json"
"$bin" sim --port 0 --scenario examples/demo/scenario.json >"$tmp/sim.out" 2>"$tmp/sim.err" &
sim_pid=$!
port=""
for _ in $(seq 1 100); do
  if grep -q '^listening on ' "$tmp/sim.out" 2>/dev/null; then
    port="$(sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$tmp/sim.out" | head -n1)"
    break
  fi
  if ! kill -0 "$sim_pid" 2>/dev/null; then break; fi
  sleep 0.1
done
if [ -z "$port" ]; then
  echo "demo: the simulator did not start:" >&2
  cat "$tmp/sim.err" >&2
  exit 1
fi
echo "simulator (SIMULATED LLM provider) listening on 127.0.0.1:$port"

in=examples/demo/inputs.jsonl
out="$tmp/results.jsonl"
banner "structure batch $in ($(wc -l <"$in") records) -> SIMULATED results"
echo "\$ structure batch $in -o results.jsonl --concurrency 8 --base-url http://127.0.0.1:$port/v1"
set +e
"$bin" batch "$in" -o "$out" --concurrency 8 --base-url "http://127.0.0.1:$port/v1" \
  --database :memory: 2>"$tmp/batch.err"
code=$?
set -e

banner "results (SIMULATED; one JSON line per record, shortened here)"
while IFS= read -r line; do
  if [ "${#line}" -gt 150 ]; then line="${line:0:147}..."; fi
  printf '%s\n' "$line"
done <"$out"

banner "summary (SIMULATED)"
cat "$tmp/batch.err"
echo "exit code $code (0 = every record ok, 1 = some record is need-more-input, stale or error)"
for s in ok need-more-input stale error; do
  printf '  %-16s %s\n' "$s" "$(grep -c "\"status\":\"$s\"" "$out" || true)"
done
echo "  re-asked then ok: $(grep '"status":"ok"' "$out" | grep -c '"iterations":2' || true)"

ev_in=examples/demo/evidence.jsonl
banner "evidence: each value tied to the words of the input that state it (SIMULATED answers)"
echo "\$ structure batch $ev_in --evidence report ...   # docs/engine.md, \"Evidence\""
"$bin" batch "$ev_in" -o "$tmp/evidence.jsonl" --ordered --base-url "http://127.0.0.1:$port/v1" \
  --database :memory: --evidence report 2>"$tmp/evidence.err" || true
while IFS= read -r line; do
  id="$(printf '%s' "$line" | sed -n 's/^{"id":"\([^"]*\)".*/\1/p')"
  echo "$id: ungrounded $(printf '%s' "$line" | sed -n 's/.*"ungrounded":\(\[[^]]*\]\).*/\1/p')"
  # Each grounded value: its pointer, the quote and where it is in the prompt (code points).
  printf '%s\n' "$line" | grep -o '"/[^"]*":{"quote":"[^"]*","byteStart":[0-9]*,"byteEnd":[0-9]*,"cpStart":[0-9]*,"cpEnd":[0-9]*,"match":"[a-z]*"' |
    sed 's/^"\([^"]*\)":{"quote":\("[^"]*"\),"byteStart":\([0-9]*\),"byteEnd":\([0-9]*\),"cpStart":\([0-9]*\),"cpEnd":\([0-9]*\),"match":"\([a-z]*\)"/  \1 <- \2 (code points \5..\6, bytes \3..\4, \7)/' || true
done <"$tmp/evidence.jsonl"
sed 's/, at most .* in flight//' "$tmp/evidence.err"
echo "\$ structure batch $ev_in --evidence require ...   # ungrounded values re-asked, then dropped"
"$bin" batch "$ev_in" -o "$tmp/require.jsonl" --ordered --base-url "http://127.0.0.1:$port/v1" \
  --database :memory: --evidence require 2>"$tmp/require.err" || true
grep '"id":"evidence-3"' "$tmp/require.jsonl" | sed 's/,"schemaOrigin".*"ungrounded"/ ... "ungrounded"/'
sed 's/, at most .* in flight//' "$tmp/require.err"

banner "use a real provider instead"
cat <<'TXT'
These answers were SIMULATED. To run the same job against a real LLM, configure a provider
(see examples/structure.toml) and drop --base-url:

  export OPENAI_API_KEY=...            # the key stays in the environment, never in config
  structure config check examples/structure.toml
  structure batch examples/demo/inputs.jsonl -o results.jsonl --concurrency 32 \
      --config examples/structure.toml
  structure batch examples/demo/inputs.jsonl -o results.jsonl --resume ...   # after a crash

More: docs/batch.md (flags, resume, exit codes) and docs/simulator.md.
TXT

banner "see these results in the web console"
cat <<'TXT'
The same records through `structure serve`, in the browser: each call's iterations, the
evidence highlighted in the input, the registry and per-schema insights (docs/console.md):

  make console
TXT
