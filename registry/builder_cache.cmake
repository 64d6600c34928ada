# The schema builder's persistent cache (SQLite, TTL).
add_library(structure_builder_cache STATIC ${CMAKE_CURRENT_LIST_DIR}/builder_cache_store.cc)
target_link_libraries(structure_builder_cache PUBLIC structure_base PRIVATE SQLite::SQLite3)
