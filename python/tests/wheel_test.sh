#!/bin/sh
# The Python package's test as `make test` runs it (tests/python.cmake): installs the build tree
# into a temporary prefix, builds a wheel of python/ against it (the engine is not compiled
# again, only the extension module), installs the wheel into a fresh venv of Debian's python3
# and runs the pytest suite against the installed package and `structure sim`.
#   wheel_test.sh BUILD_DIR SOURCE_DIR STRUCTURE_BINARY SANITIZE(ON|OFF) [PYTEST ARGS...]
set -eu
build=$1 src=$2 binary=$3 sanitize=$4
shift 4
work=$build/python-test
python=/usr/bin/python3  # Debian's, whatever python3 comes first on PATH

rm -rf "$work"
mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > /dev/null
# A copy of python/, so the build writes nothing into the source tree.
cp -r "$src/python" "$work/python"
rm -rf "$work/python/build" "$work/python/tests"

flags=""
if [ "$sanitize" = ON ]; then flags="-fsanitize=address,undefined"; fi
launcher=""
if command -v ccache > /dev/null; then launcher="-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"; fi
export STRUCTURE_PREFIX="$work/prefix"
export STRUCTURE_CMAKE_ARGS="-DCMAKE_CXX_FLAGS=$flags -DCMAKE_MODULE_LINKER_FLAGS=$flags $launcher"
export STRUCTURE_JOBS="${STRUCTURE_JOBS:-2}"

"$python" -m venv --system-site-packages "$work/venv"
cd "$work"
"$work/venv/bin/pip" wheel --quiet --no-index --no-build-isolation --no-deps \
  -w "$work/wheels" "$work/python"
"$work/venv/bin/pip" install --quiet --no-index --no-deps "$work"/wheels/structure-*.whl

if [ "$sanitize" = ON ]; then
  # The extension is built with ASan: its runtime must be loaded before anything else (and
  # libstdc++ with it, or ASan cannot intercept C++ throws: python3 does not link libstdc++),
  # and Python's own allocations at exit are not leaks of ours.
  LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libstdc++.so)"
  export LD_PRELOAD
  export ASAN_OPTIONS="detect_leaks=0:quarantine_size_mb=64${ASAN_OPTIONS:+:$ASAN_OPTIONS}"
  # A call costs ASan about ten times its CPU: the memory test samples 20 000 records here
  # (100 000 in a release build, or with STRUCTURE_MEMORY_RECORDS=100000).
  export STRUCTURE_MEMORY_RECORDS="${STRUCTURE_MEMORY_RECORDS:-20000}"
fi
export STRUCTURE_BINARY="$binary" STRUCTURE_EXPECT_INSTALLED=1 PYTHONDONTWRITEBYTECODE=1
exec "$work/venv/bin/python" -m pytest -p no:cacheprovider -q "$src/python/tests" "$@"
