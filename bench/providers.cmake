# bench_pool: the provider pool against `structure sim` (throughput, CPU per call, rate limits,
# lanes). Not a Google Benchmark binary: it drives a child process and reports numbers.
add_executable(bench_pool ${CMAKE_CURRENT_LIST_DIR}/bench_pool.cc ${CMAKE_CURRENT_LIST_DIR}/curl_floor.cc)
target_link_libraries(bench_pool PRIVATE structure_pool)
structure_use_fast_malloc(bench_pool)
# The bench runs whatever `structure` binary the build dir holds (build it first).
target_compile_definitions(bench_pool PRIVATE STRUCTURE_BINARY_PATH="$<TARGET_FILE:structure>")

# bench_wire: Google Benchmark of request building and reply parsing per wire format.
add_executable(bench_wire ${CMAKE_CURRENT_LIST_DIR}/bench_wire.cc)
target_link_libraries(bench_wire PRIVATE structure_providers benchmark::benchmark)
target_compile_definitions(bench_wire PRIVATE STRUCTURE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
structure_use_fast_malloc(bench_wire)
