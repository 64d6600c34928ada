# Two entry points, both usable on a fresh Debian 12 machine:
#   make demo   build and run the main job on the embedded simulator (no provider needed)
#   make console  the web console of `structure serve` on the demo's results
#   make test   install what is missing, build with ASan+UBSan from scratch, run every test,
#               then the fuzz stage (`make fuzz`: every libFuzzer target, FUZZ_SECONDS each)
# Everything builds out of tree under build/.

DEB_PACKAGES := cmake ninja-build g++ pkg-config git \
  libcaf-dev libsimdjson-dev libtomlplusplus-dev libre2-dev libcurl4-openssl-dev libssl-dev \
  libboost-dev libboost-system-dev libsqlite3-dev libtcmalloc-minimal4 \
  libgtest-dev libgmock-dev libbenchmark-dev libvalijson-dev nlohmann-json3-dev \
  libhiredis-dev redis-server libpq-dev postgresql python3-yaml libicu-dev libpoppler-cpp-dev qpdf haproxy nginx tinyproxy \
  clang-14 libclang-rt-14-dev clang-format chromium curl \
  python3-dev python3-venv python3-pip python3-setuptools python3-wheel pybind11-dev python3-pybind11 \
  python3-pytest python3-pydantic python3-pandas
# libpq-dev: the PostgreSQL store (`stores.database = "postgresql://..."`); postgresql: the
# private server the store tests start on a loopback port (tests/support/postgres_server.h).
# python3-yaml: the check of the Kubernetes manifests in docs/deploy.md (deploy_manifests).
# python3-*, pybind11-dev: the Python package (python/, docs/python.md) and its tests, offline.
# chromium: the console's browser test (tests/console, driven by puppeteer-core); curl: `make
# console` sends the demo's records through the server. haproxy: the load balancer in front of
# the serve replicas of the fleet test (tests/server/openai_clients/fleet_test.mjs,
# docs/deploy.md).
# clang-14 and libclang-rt-14-dev (libFuzzer's runtime, only recommended by clang) build the
# fuzz targets in build/fuzz. nginx (TLS 1.3 + HTTP/2 in front of the simulator) and tinyproxy
# (a CONNECT proxy) are started by the transport tests and bench_tls on loopback ports.
# libssl-dev: the curl transport builds one OpenSSL CA store and hands it to every TLS
# connection (libcurl would parse the bundle once per multi handle).
# clang-format (version 14 on Debian 12) is run by the format test: every tracked .cc/.h file
# must be as it writes it.
JOBS ?= $(shell nproc)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

FUZZ_SECONDS ?= 10

.PHONY: deps demo console test release asan fuzz fuzz-build bench clean

deps:
	@missing=$$(for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done); \
	if [ -n "$$missing" ]; then \
	  echo "installing Debian packages:" $$missing; \
	  $(SUDO) apt-get update -qq && \
	  DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing; \
	fi

release: deps
	cmake -S . -B build/release -G Ninja -DCMAKE_BUILD_TYPE=Release -DSTRUCTURE_DEVELOPER_MODE=OFF
	cmake --build build/release -j $(JOBS) --target structure

demo: release
	./tools/demo.sh build/release/apps/structure

console: release
	./tools/console.sh build/release/apps/structure

asan: deps
	cmake -S . -B build/asan -G Ninja -DCMAKE_BUILD_TYPE=Debug -DSTRUCTURE_SANITIZE=ON -DSTRUCTURE_WERROR=ON
	cmake --build build/asan -j $(JOBS)

test: asan
	@# The fuzz tree (clang) builds at low priority while the tests run: many tests wait on
	@# sockets and timers, and its compiles fill the idle cores. Its log: build/fuzz-build.log.
	@nice -n 10 $(MAKE) --no-print-directory fuzz-build > build/fuzz-build.log 2>&1 & fb=$$!; \
	ctest --test-dir build/asan --output-on-failure -j $(JOBS) --timeout 600; rc=$$?; \
	wait $$fb; fbrc=$$?; \
	if [ $$fbrc -ne 0 ]; then cat build/fuzz-build.log; echo "the fuzz build failed"; fi; \
	[ $$rc -eq 0 ] && [ $$fbrc -eq 0 ]
	./tools/fuzz.sh build/fuzz $(FUZZ_SECONDS)

# A second tree built by clang with ASan+UBSan and libFuzzer: only the fuzz targets and the
# libraries they need. Ten targets at FUZZ_SECONDS each (docs/fuzzing.md).
fuzz: fuzz-build
	./tools/fuzz.sh build/fuzz $(FUZZ_SECONDS)

fuzz-build: deps
	cmake -S . -B build/fuzz -G Ninja -DCMAKE_BUILD_TYPE=Debug -DCMAKE_CXX_COMPILER=clang++-14 \
	  -DSTRUCTURE_SANITIZE=ON -DSTRUCTURE_FUZZ=ON -DSTRUCTURE_DEVELOPER_MODE=OFF
	cmake --build build/fuzz -j $(JOBS) --target fuzzers

bench: deps
	cmake -S . -B build/bench -G Ninja -DCMAKE_BUILD_TYPE=Release
	cmake --build build/bench -j $(JOBS)

clean:
	rm -rf build
