# bench_validate: Google Benchmark of the validator on the three bench schemas.
add_executable(bench_validate ${CMAKE_CURRENT_LIST_DIR}/bench_validate.cc)
target_link_libraries(bench_validate PRIVATE structure_validator benchmark::benchmark)
target_compile_definitions(bench_validate PRIVATE
  STRUCTURE_CORPORA_DIR="${PROJECT_SOURCE_DIR}/tests/corpora")
