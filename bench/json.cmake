# bench_json: how Json objects and schema compilation scale with the member count.
add_executable(bench_json ${CMAKE_CURRENT_LIST_DIR}/bench_json.cc)
target_link_libraries(bench_json PRIVATE structure_validator benchmark::benchmark)
