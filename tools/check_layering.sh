#!/usr/bin/env bash
# The layering of the tree, checked (run as the `layering` test):
#  1. every folder with C++ sources is in the table below, and includes only project headers of
#     the folders its row allows (dependencies point down; no folder-level cycle);
#  2. CAF only in actors/ and engine/ (the composition root that starts the actor system);
#  3. curl only in the providers' transport (providers/curl_*), hiredis only in the Redis client,
#     libpq only in the PostgreSQL store (registry/postgres_*).
set -u
root="${1:-.}"
cd "$root" || exit 2

# folder: the folders it may include from (itself always allowed).
declare -A allowed=(
  [include]=""  # the public API: include/structure/ includes nothing but itself
  [base]=""
  [providers]="base"
  [config]="providers base"
  [registry]="config base"
  [pipeline/validator]="base"
  [pipeline/generate]="base"
  [pipeline/evidence]="pipeline/generate base"
  [pipeline/lowering]="pipeline/generate providers config base"
  [pipeline/files]="providers base"
  [pipeline]="pipeline/validator pipeline/generate pipeline/evidence pipeline/lowering pipeline/files registry providers config base"
  [actors]="pipeline pipeline/files pipeline/validator pipeline/generate pipeline/evidence pipeline/lowering registry providers config base"
  [engine]="actors pipeline pipeline/validator pipeline/lowering registry providers config base"
  [http]="base"
  [sim]="http pipeline pipeline/files pipeline/validator pipeline/generate pipeline/lowering providers config base"
  [batch]="pipeline pipeline/validator providers config base"
  [server]="engine http pipeline pipeline/files pipeline/validator pipeline/lowering registry providers config base"
  [python]=""  # the Python package's extension: the public API (include/structure/) only
  [apps]="server batch sim engine http pipeline pipeline/files pipeline/validator pipeline/generate pipeline/lowering pipeline/evidence registry providers config base"
)

status=0
sources=$(git ls-files '*.cc' '*.h' 2>/dev/null | grep -vE '^(tests|bench|fuzz|examples|build)/')
[ -n "$sources" ] || sources=$(find . \( -name '*.cc' -o -name '*.h' \) | sed 's#^\./##' |
  grep -vE '^(tests|bench|fuzz|examples|build)/')
table=$(for key in "${!allowed[@]}"; do echo "$key:${allowed[$key]}"; done)
# One awk pass over every source: a file's row is its longest listed folder prefix; an include's
# row likewise (headers outside the table are not the project's).
out=$(awk -v table="$table" '
  function row_of(path,   best, k) {
    best = ""
    for (k in ok) if (index(path, k "/") == 1 && length(k) > length(best)) best = k
    return best
  }
  BEGIN {
    n = split(table, lines, "\n")
    for (i = 1; i <= n; i++) {
      c = index(lines[i], ":"); key = substr(lines[i], 1, c - 1)
      ok[key] = " " substr(lines[i], c + 1) " "
    }
  }
  FNR == 1 {
    row = row_of(FILENAME)
    if (row == "") { print FILENAME ": its folder has no row in tools/check_layering.sh"; bad = 1 }
  }
  row != "" && /^#include "/ {
    inc = $0; sub(/^#include "/, "", inc); sub(/".*/, "", inc)
    target = row_of(inc)
    if (target != "" && target != row && index(ok[row], " " target " ") == 0) {
      print FILENAME ": includes \"" inc "\", but " row "/ may not depend on " target "/"
      bad = 1
    }
  }
  END { exit bad }' $sources) || status=1
[ -z "$out" ] || echo "$out"

bad=$(grep -rnE '#include *[<"]caf/' $(ls -d */ | grep -vE '^(actors|engine|tests|bench|fuzz|build)/') 2>/dev/null)
[ -z "$bad" ] || { echo "CAF included outside actors/ and engine/:"; echo "$bad"; status=1; }
bad=$(grep -rnE '#include *[<"]curl/' base config registry pipeline actors engine http sim batch server apps 2>/dev/null)
[ -z "$bad" ] || { echo "curl included outside the providers' transport:"; echo "$bad"; status=1; }
bad=$(grep -rnE '#include *[<"]hiredis/' $(ls -d */ | grep -vE '^(tests|bench|fuzz|build)/') 2>/dev/null |
  grep -v '^registry/redis_client.cc:')
[ -z "$bad" ] || { echo "hiredis included outside registry/redis_client.cc:"; echo "$bad"; status=1; }
bad=$(grep -rnE '#include *[<"](libpq-fe|libpq/)' $(ls -d */ | grep -vE '^(tests|bench|fuzz|build)/') 2>/dev/null |
  grep -vE '^registry/postgres_[a-z_]*\.(cc|h):')
[ -z "$bad" ] || { echo "libpq included outside registry/postgres_*:"; echo "$bad"; status=1; }

# A clone alone builds and tests: nothing outside it is read (the corpora are in tests/corpora).
bad=$(git ls-files -- '*.cc' '*.h' '*.txt' '*.cmake' '*.sh' '*.mjs' '*.js' '*.py' Makefile .ci 2>/dev/null |
  xargs grep -n '\.\./shared' 2>/dev/null)
[ -z "$bad" ] || { echo "names the folder beside the clone, which a clone does not have (copy the data into the repository):"; echo "$bad"; status=1; }

[ $status -eq 0 ] && echo "layering ok: every folder within its row; CAF only in actors/ and engine/; curl only in the transport; hiredis only in the Redis client; libpq only in the PostgreSQL store; nothing read outside the clone"
exit $status
