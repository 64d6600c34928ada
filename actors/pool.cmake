# The provider pool actor (CAF) over the pure wire formats and the curl transport.
add_library(structure_pool STATIC
  ${CMAKE_CURRENT_LIST_DIR}/pool_shared.cc
  ${CMAKE_CURRENT_LIST_DIR}/provider_pool.cc)
target_link_libraries(structure_pool PUBLIC CAF::core structure_providers structure_transport
  structure_redis)
