# The engine: structure::Engine (public API), the per-request actor, the builder cache actor.
include(GNUInstallDirs)
add_library(structure_engine STATIC
  ${CMAKE_CURRENT_LIST_DIR}/builder_cache_actor.cc
  ${CMAKE_CURRENT_LIST_DIR}/check_process.cc
  ${CMAKE_CURRENT_LIST_DIR}/check_runner.cc
  ${CMAKE_CURRENT_LIST_DIR}/engine.cc
  ${CMAKE_CURRENT_LIST_DIR}/engine_context.cc
  ${CMAKE_CURRENT_LIST_DIR}/loop_driver.cc
  ${CMAKE_CURRENT_LIST_DIR}/plan_cache.cc
  ${CMAKE_CURRENT_LIST_DIR}/provider_setup.cc
  ${CMAKE_CURRENT_LIST_DIR}/request_actor.cc
  ${CMAKE_CURRENT_LIST_DIR}/shared_store.cc)
target_link_libraries(structure_engine PUBLIC
  structure_pool structure_content structure_lowering structure_registry structure_builder_cache
  structure_config structure_base CAF::core)
target_compile_definitions(structure_engine PRIVATE
  STRUCTURE_INSTALLED_SCHEMAS="${CMAKE_INSTALL_FULL_DATADIR}/structure/schemas"
  STRUCTURE_SOURCE_SCHEMAS="${PROJECT_SOURCE_DIR}/registry/schemas")
