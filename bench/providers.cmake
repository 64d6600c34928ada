# bench_pool: the provider pool against `structure sim` (throughput, CPU per call, rate limits,
# lanes). Not a Google Benchmark binary: it drives a child process and reports numbers.
add_library(structure_bench_pool_driver STATIC ${CMAKE_CURRENT_LIST_DIR}/pool_driver.cc
  ${CMAKE_CURRENT_LIST_DIR}/curl_floor.cc)
target_link_libraries(structure_bench_pool_driver PUBLIC structure_pool)
target_compile_definitions(structure_bench_pool_driver PRIVATE
  STRUCTURE_BINARY_PATH="$<TARGET_FILE:structure>")
add_executable(bench_pool ${CMAKE_CURRENT_LIST_DIR}/bench_pool.cc)
target_link_libraries(bench_pool PRIVATE structure_bench_pool_driver)
structure_use_fast_malloc(bench_pool)
# The bench runs whatever `structure` binary the build dir holds (build it first).
target_compile_definitions(bench_pool PRIVATE STRUCTURE_BINARY_PATH="$<TARGET_FILE:structure>")

# bench_wire: Google Benchmark of request building and reply parsing per wire format.
add_executable(bench_wire ${CMAKE_CURRENT_LIST_DIR}/bench_wire.cc)
target_link_libraries(bench_wire PRIVATE structure_providers benchmark::benchmark)
target_compile_definitions(bench_wire PRIVATE STRUCTURE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
structure_use_fast_malloc(bench_wire)

# bench_tls: the pool, bare libcurl and the official OpenAI Node SDK through nginx (TLS 1.3,
# HTTP/2 or HTTP/1.1) in front of `structure sim` (docs/providers.md, "Over TLS").
add_executable(bench_tls ${CMAKE_CURRENT_LIST_DIR}/bench_tls.cc)
target_link_libraries(bench_tls PRIVATE structure_bench_pool_driver)
structure_use_fast_malloc(bench_tls)
target_compile_definitions(bench_tls PRIVATE STRUCTURE_BINARY_PATH="$<TARGET_FILE:structure>"
  STRUCTURE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
