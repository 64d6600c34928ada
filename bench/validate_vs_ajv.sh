#!/bin/sh
# `structure validate` against ajv 8, end to end, in one run: the three bench
# schemas of tests/corpora/bench-schemas, their valid and their invalid instance, each
# repeated LINES times as JSON Lines; all errors, one verdict line per instance from both.
# Prints ms per run (best of REPEAT, runs interleaved) and ajv/structure (above 1: faster).
#
#   bench/validate_vs_ajv.sh [STRUCTURE_BINARY] [LINES] [REPEAT]
#   (default build/rel/apps/structure, 100000 lines, 3 runs; ajv from bench/ajv via `npm ci`)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${1:-$root/build/rel/apps/structure}
lines=${2:-100000}
repeat=${3:-3}
corpus=$root/tests/corpora/bench-schemas
[ -x "$bin" ] || { echo "no structure binary at $bin" >&2; exit 2; }
if [ ! -d "$here/ajv/node_modules/ajv" ]; then
  (cd "$here/ajv" && npm ci --no-audit --no-fund >/dev/null)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

now_ms() { date +%s%3N; }

# best-of-REPEAT wall time in ms of "$@" < $in > $out
printf '%-10s %-8s %8s %10s %10s %8s\n' schema lines verdicts structure_ms ajv_ms ratio
for s in s1_action s2_order s3_profile; do
  for kind in valid invalid; do
    in=$work/$s.$kind.jsonl
    node -e '
      const fs = require("fs");
      const line = JSON.stringify(JSON.parse(fs.readFileSync(process.argv[1], "utf8"))) + "\n";
      fs.writeFileSync(process.argv[2], line.repeat(Number(process.argv[3])));' \
      "$corpus/$s.$kind.json" "$in" "$lines"
    best_s=; best_a=
    i=0
    while [ $i -lt "$repeat" ]; do
      t0=$(now_ms); "$bin" validate --schema "$corpus/$s.schema.json" < "$in" > "$work/s.out" || true; t1=$(now_ms)
      node "$here/ajv/validate.js" "$corpus/$s.schema.json" < "$in" > "$work/a.out" || true; t2=$(now_ms)
      ds=$((t1 - t0)); da=$((t2 - t1))
      if [ -z "$best_s" ] || [ $ds -lt "$best_s" ]; then best_s=$ds; fi
      if [ -z "$best_a" ] || [ $da -lt "$best_a" ]; then best_a=$da; fi
      i=$((i + 1))
    done
    # Same verdicts, line by line: one line per instance from both, valid/invalid agreeing.
    vs=$(cut -c1-14 "$work/s.out" | sort | uniq -c | tr -s ' ' | tr '\n' ';')
    va=$(cut -c1-14 "$work/a.out" | sort | uniq -c | tr -s ' ' | tr '\n' ';')
    if [ "$vs" != "$va" ]; then echo "$s $kind: verdicts differ: structure $vs ajv $va" >&2; exit 1; fi
    n=$(wc -l < "$work/s.out")
    ratio=$(awk -v a="$best_a" -v s="$best_s" 'BEGIN { printf "%.2f", (s > 0 ? a / s : 0) }')
    printf '%-10s %-8s %8s %10s %10s %8s\n' "$s" "$kind" "$n" "$best_s" "$best_a" "$ratio"
  done
done
