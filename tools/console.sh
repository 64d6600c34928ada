#!/usr/bin/env bash
# `make console`: the web console on the demo's results. Starts the provider SIMULATOR (the
# demo's scenario) and `structure serve` on loopback with a fresh API key and keep_prompts on,
# sends the demo's records through the server's API (the bulk job and the evidence records, so
# the insights and evidence pages have them), prints the console's address and serves until
# Ctrl-C. $1 is the structure binary (default build/release/apps/structure); CONSOLE_PORT picks
# the server's port (default 8080; 0 = any free one).
set -euo pipefail
bin="${1:-build/release/apps/structure}"
case "$bin" in /*) ;; *) bin="$PWD/$bin" ;; esac
cd "$(dirname "$0")/.."
if [ ! -x "$bin" ]; then
  echo "console: $bin is not an executable; build it first (make console does)" >&2
  exit 2
fi
if ! command -v curl >/dev/null; then
  echo "console: curl is needed to send the demo's records (apt-get install curl, or make deps)" >&2
  exit 2
fi

tmp="$(mktemp -d "${TMPDIR:-/tmp}/structure-console.XXXXXX")"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Starts "$@" in the background with its stdout in $tmp/$name.out; prints its port.
start() {
  local name=$1
  shift
  "$@" >"$tmp/$name.out" 2>"$tmp/$name.err" &
  pids+=($!)
  for _ in $(seq 1 100); do
    if grep -q '^listening on ' "$tmp/$name.out" 2>/dev/null; then
      sed -n 's/^listening on .*:\([0-9]*\)$/\1/p' "$tmp/$name.out" | head -n1
      return 0
    fi
    kill -0 "${pids[-1]}" 2>/dev/null || break
    sleep 0.1
  done
  echo "console: $name did not start:" >&2
  cat "$tmp/$name.err" >&2
  return 1
}

sim_port=$(start sim "$bin" sim --port 0 --scenario examples/demo/scenario.json)
key=$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
sha=$(printf '%s' "$key" | sha256sum | cut -d' ' -f1)
cat >"$tmp/console.toml" <<TOML
# Made by tools/console.sh for this session only.
[server]
keep_prompts = true

[[server.keys]]
name = "demo"
sha256 = "$sha"
tenant = "demo"
projects = ["*"]
TOML
port=$(start serve "$bin" serve --config "$tmp/console.toml" --port "${CONSOLE_PORT:-8080}" \
  --base-url "http://127.0.0.1:$sim_port/v1" --database :memory:)

# The demo's records through the API, four at a time (the last input line is deliberately not
# JSON: the server answers it 400, as it should).
post() {
  curl -sS -o /dev/null -H "Authorization: Bearer $key" -H 'Content-Type: application/json' \
    --data-binary @- "http://127.0.0.1:$port/v1/structure" || true
}
export -f post
export key port
n=0
while IFS= read -r line; do
  [ -n "$line" ] || continue
  printf '%s\n' "$line" | post &
  n=$((n + 1))
  if [ $((n % 4)) -eq 0 ]; then wait -n 2>/dev/null || true; fi
done < examples/demo/inputs.jsonl
while IFS= read -r line; do
  [ -n "$line" ] || continue
  printf '%s\n' "${line/\{/\{\"evidence\": \"report\", }" | post
done < examples/demo/evidence.jsonl
wait -n 2>/dev/null || true
sleep 1

cat <<TXT

==== the web console (SIMULATED provider: answers come from examples/demo/scenario.json) ====
Open in a browser on this machine:

  http://127.0.0.1:$port/ui/#key=$key

The key (made for this session, tenant "demo") travels in the address's fragment, which the
browser never sends to the server; the page keeps it in the tab. The demo's records were sent
through the server's API: Insights has the bulk job, Evidence lists the evidence records under
"Recent calls with evidence". Ctrl-C stops the simulator and the server.
TXT
if [ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ] && command -v xdg-open >/dev/null; then
  xdg-open "http://127.0.0.1:$port/ui/#key=$key" >/dev/null 2>&1 || true
fi
wait "${pids[1]}"
