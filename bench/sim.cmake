# sim_load: the 10 000-connection load tool for `structure sim` (see docs/simulator.md).
add_executable(sim_load ${CMAKE_CURRENT_LIST_DIR}/sim_load.cc)
# bench_prompt_cache: the prompt-caching benchmark (structure batch against structure sim,
# caching on and off per provider). It runs the build dir's `structure`: build that first.
add_executable(bench_prompt_cache ${CMAKE_CURRENT_LIST_DIR}/prompt_cache.cc)
target_compile_definitions(bench_prompt_cache PRIVATE STRUCTURE_BINARY="$<TARGET_FILE:structure>")
# bench_long_document: a 1 MB invoice through `structure run` against a simulated 8 192-token
# model (issue 45; docs/engine.md "Long documents"). It runs the build dir's `structure`.
add_executable(bench_long_document ${CMAKE_CURRENT_LIST_DIR}/long_document.cc)
target_include_directories(bench_long_document PRIVATE ${PROJECT_SOURCE_DIR} ${PROJECT_SOURCE_DIR}/include)
target_link_libraries(bench_long_document PRIVATE structure_base)
target_compile_definitions(bench_long_document PRIVATE STRUCTURE_BINARY="$<TARGET_FILE:structure>")
