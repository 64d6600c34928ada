#!/usr/bin/env bash
# Fails when a tracked .cc or .h file differs from what clang-format makes of it (.clang-format
# at the root), naming each such file and the command that fixes it. Needs clang-format 14, the
# version Debian 12 ships (`make deps` installs it): another version formats some lines otherwise.
set -u
root="${1:-.}"
cd "$root" || exit 2
tool=""
for t in clang-format-14 clang-format; do
  if command -v "$t" >/dev/null 2>&1; then tool="$t"; break; fi
done
if [ -z "$tool" ]; then
  echo "clang-format not found: install clang-format 14 (make deps)"; exit 1
fi
version=$("$tool" --version | sed -n 's/.*version \([0-9][0-9]*\)\..*/\1/p')
if [ "$version" != "14" ]; then
  echo "$tool is version '$version'; the formatting is checked with clang-format 14"; exit 1
fi
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  files=$(git ls-files -- '*.cc' '*.h')
else
  files=$(find . -path ./build -prune -o \( -name '*.cc' -o -name '*.h' \) -print)
fi
# One clang-format run over all files; each violation is reported as "FILE:LINE:COL: error: ...".
out=$(printf '%s\n' $files | xargs "$tool" --dry-run -Werror 2>&1)
status=$?
bad=$(printf '%s\n' "$out" |
  sed -n 's/^\(.*\):[0-9]*:[0-9]*: error: .*clang-format-violations.*/\1/p' | sort -u)
if [ "$status" != 0 ] && [ -z "$bad" ]; then
  echo "$tool failed:"; printf '%s\n' "$out" | head -20; exit 1
fi
if [ -n "$bad" ]; then
  echo "not formatted (fix: $tool -i FILE):"
  for f in $bad; do echo "  $f"; done
  exit 1
fi
echo "format ok: $(echo "$files" | wc -w) files as clang-format $version writes them"
