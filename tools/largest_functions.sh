#!/bin/sh
# The largest functions of the product code (tests, benchmarks, fuzz targets and examples left
# out), by lines from their first to their last, as universal-ctags sees them.
# Usage: tools/largest_functions.sh [TREE [N]]   (a git checkout; default: this one, 8 rows)
set -eu
tree=${1:-$(cd "$(dirname "$0")/.." && pwd)}
rows=${2:-8}
command -v ctags >/dev/null || { echo "ctags not found (Debian package universal-ctags)" >&2; exit 2; }
cd "$tree"
git ls-files '*.cc' '*.h' | grep -v '^tests/\|^bench/\|^fuzz/\|^examples/' |
  xargs ctags --fields=+ne --kinds-c++=f -o - 2>/dev/null |
  awk -F'\t' '{
    line = ""; end = ""
    for (i = 4; i <= NF; i++) {
      if ($i ~ /^line:/) line = substr($i, 6)
      if ($i ~ /^end:/) end = substr($i, 5)
    }
    if (line != "" && end != "") print end - line + 1, $2 ":" line, $1
  }' | sort -rn | head -n "$rows"
