# bench_evidence: the extra CPU per call of the evidence checks on the bundled schemas.
add_executable(bench_evidence ${CMAKE_CURRENT_LIST_DIR}/bench_evidence.cc)
target_link_libraries(bench_evidence PRIVATE structure_content benchmark::benchmark)
target_compile_definitions(bench_evidence PRIVATE STRUCTURE_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
