# The schema builder's persistent cache (SQLite, TTL) and its entries' form in the shared store.
add_library(structure_builder_cache STATIC
  ${CMAKE_CURRENT_LIST_DIR}/builder_cache_store.cc
  ${CMAKE_CURRENT_LIST_DIR}/shared_builder_cache.cc)
target_link_libraries(structure_builder_cache PUBLIC structure_base PRIVATE SQLite::SQLite3)
