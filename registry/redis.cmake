# The shared store's client: one Redis connection on its own thread (hiredis, Debian's
# libhiredis-dev), used by the provider pools' shared limits and the shared builder cache.
add_library(structure_redis STATIC ${CMAKE_CURRENT_LIST_DIR}/redis_client.cc)
target_link_libraries(structure_redis PUBLIC structure_base Threads::Threads PRIVATE PkgConfig::HIREDIS)
