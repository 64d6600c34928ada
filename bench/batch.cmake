# throughput: the issue-8 harness (structure batch against structure sim; docs/batch.md).
add_executable(throughput ${CMAKE_CURRENT_LIST_DIR}/throughput.cc)
target_compile_definitions(throughput PRIVATE STRUCTURE_BINARY="$<TARGET_FILE:structure>")
add_dependencies(throughput structure)
