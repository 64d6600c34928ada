#!/bin/sh
# Loading schemas with n members through `structure validate`, n = 1 000 .. 1 000 000:
# 10x more members must cost at most ~10x the time. Three shapes, each validated
# against one instance line so the whole load (read, parse, check, compile) is on the path:
#   annotation  {"default":{"k0":0,...}}                 parsing only (an annotation)
#   properties  {"properties":{"p0":{"type":"integer","minimum":0},...}}
#   defs        {"properties":{"p0":{"$ref":"#/$defs/d0"},...},"$defs":{"d0":{...},...}}
# Prints the best-of-REPEAT wall and CPU (user + system) time in ms, peak memory, and the CPU
# time's ratio to the previous size (CPU time: the machine is shared, so wall time also
# measures the other jobs). Needs GNU time (/usr/bin/time).
#
#   bench/schema_scaling.sh [STRUCTURE_BINARY] [REPEAT] [MAX_N]
#   (default build/rel/apps/structure, 3, 1000000)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${1:-$root/build/rel/apps/structure}
repeat=${2:-3}
max_n=${3:-1000000}
[ -x "$bin" ] || { echo "no structure binary at $bin" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
[ -x /usr/bin/time ] || { echo "needs GNU time at /usr/bin/time" >&2; exit 2; }

schema() {  # shape n > file
  awk -v shape="$1" -v n="$2" 'BEGIN {
    if (shape == "annotation") {
      printf "{\"default\":{"
      for (i = 0; i < n; i++) printf "%s\"k%d\":%d", (i ? "," : ""), i, i
      printf "}}"
    } else if (shape == "properties") {
      printf "{\"type\":\"object\",\"properties\":{"
      for (i = 0; i < n; i++) printf "%s\"p%d\":{\"type\":\"integer\",\"minimum\":%d}", (i ? "," : ""), i, i
      printf "}}"
    } else {
      printf "{\"type\":\"object\",\"properties\":{"
      for (i = 0; i < n; i++) printf "%s\"p%d\":{\"$ref\":\"#/$defs/d%d\"}", (i ? "," : ""), i, i
      printf "},\"$defs\":{"
      for (i = 0; i < n; i++) printf "%s\"d%d\":{\"type\":\"integer\",\"minimum\":%d}", (i ? "," : ""), i, i
      printf "}}"
    }
  }'
}

echo '{"p0":0,"p1":1,"k":"x"}' > "$work/in.jsonl"
printf '%-11s %9s %9s %9s %9s %7s\n' shape members wall_ms cpu_ms peak_MB x_prev
for shape in annotation properties defs; do
  prev=
  n=1000
  while [ "$n" -le "$max_n" ]; do
    schema "$shape" "$n" > "$work/s.json"
    best=; best_wall=; peak=
    i=0
    while [ $i -lt "$repeat" ]; do
      /usr/bin/time -o "$work/time" -f '%e %U %S %M' "$bin" validate --schema "$work/s.json" < "$work/in.jsonl" \
        > "$work/out" 2> "$work/err" ||
        { echo "$shape $n: structure validate failed: $(head -c 300 "$work/err")" >&2; exit 1; }
      set -- $(cat "$work/time")
      wall=$(awk -v e="$1" 'BEGIN { printf "%d", e * 1000 }')
      cpu=$(awk -v u="$2" -v s="$3" 'BEGIN { printf "%d", (u + s) * 1000 }')
      if [ -z "$best" ] || [ "$cpu" -lt "$best" ]; then best=$cpu; best_wall=$wall; peak=$(( $4 / 1024 )); fi
      i=$((i + 1))
    done
    ratio=-
    if [ -n "$prev" ]; then ratio=$(awk -v a="$best" -v b="$prev" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'); fi
    printf '%-11s %9s %9s %9s %9s %7s\n' "$shape" "$n" "$best_wall" "$best" "$peak" "$ratio"
    prev=$best
    n=$((n * 10))
  done
done
