#!/bin/sh
# Runs every libFuzzer target in BUILD (default build/fuzz; `make fuzz` builds it) for SECONDS
# each (default 20) from its seed corpus fuzz/corpus/<target>/. New inputs go to
# BUILD/fuzz-work/<target>/, never into the tree. One line per target: executions, corpus size,
# and ok or FAIL. Exit 1 when any target found something (crash, sanitizer report, leak,
# timeout, out of memory); its log and reproducer are in BUILD/fuzz-work/.
# Usage: tools/fuzz.sh [BUILD [SECONDS [TARGET...]]]
set -u
build=${1:-build/fuzz}
seconds=${2:-20}
[ $# -gt 2 ] && shift 2 || set --
src=$(cd "$(dirname "$0")/.." && pwd)
targets=${*:-$(ls "$src/fuzz/corpus")}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
failed=0
for t in $targets; do
  bin="$build/fuzz/$t"
  work="$build/fuzz-work/$t"
  if [ ! -x "$bin" ]; then
    echo "FAIL $t: $bin not built (make fuzz)"
    failed=1
    continue
  fi
  mkdir -p "$work/corpus"
  start=$(date +%s)
  "$bin" "$work/corpus" "$src/fuzz/corpus/$t" -max_total_time="$seconds" -timeout=10 \
    -rss_limit_mb=2048 -max_len=16384 -print_final_stats=1 -artifact_prefix="$work/" \
    >"$work/log" 2>&1
  rc=$?
  took=$(( $(date +%s) - start ))
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
  units=$(ls "$work/corpus" | wc -l)
  if [ $rc -eq 0 ] && ! grep -q "runtime error:\|AddressSanitizer\|LeakSanitizer" "$work/log"; then
    echo "ok   $t: ${took}s, ${execs:-?} executions, $units new inputs"
  else
    echo "FAIL $t: exit $rc after ${took}s; $(grep -m1 "ERROR\|runtime error:\|SUMMARY" "$work/log")"
    echo "     log: $work/log; reproduce: $bin $(ls "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* 2>/dev/null | head -1)"
    failed=1
  fi
done
exit $failed
