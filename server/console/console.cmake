# The web console of `structure serve` (docs/console.md): its C++ sources, and its built front
# end (server/console/dist, committed; `npm run build` here writes it) embedded into a generated
# source file, so the binary serves /ui without any file beside it. The test
# console_assets_current checks that dist/ is what the sources build to.
set(_console ${PROJECT_SOURCE_DIR}/server/console)
file(GLOB_RECURSE _console_dist CONFIGURE_DEPENDS ${_console}/dist/*)
set(_console_data ${CMAKE_CURRENT_BINARY_DIR}/console_files_data.cc)
add_custom_command(OUTPUT ${_console_data}
  COMMAND ${CMAKE_COMMAND} -DBASE=${_console}/dist -DOUT=${_console_data}
          -DNAMESPACE=structure::server -P ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
  DEPENDS ${_console_dist} ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
  COMMENT "Embedding the console (server/console/dist)")
set(STRUCTURE_CONSOLE_SOURCES
  ${_console}/console_api.cc
  ${_console}/console_assets.cc
  ${_console}/console_config.cc
  ${_console}/console_files.cc
  ${_console}/provider_check.cc
  ${_console}/recent_calls.cc
  ${_console}/schema_check.cc
  ${_console_data})
