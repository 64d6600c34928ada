# `structure serve` (HTTP JSON API) and `structure mcp` (MCP over stdio).
include(${PROJECT_SOURCE_DIR}/server/console/console.cmake)
add_library(structure_server STATIC
  ${CMAKE_CURRENT_LIST_DIR}/server/api.cc
  ${CMAKE_CURRENT_LIST_DIR}/server/auth.cc
  ${CMAKE_CURRENT_LIST_DIR}/server/metrics.cc
  ${CMAKE_CURRENT_LIST_DIR}/server/openapi.cc
  ${CMAKE_CURRENT_LIST_DIR}/server/schema_routes.cc
  ${CMAKE_CURRENT_LIST_DIR}/server/serve.cc
  ${CMAKE_CURRENT_LIST_DIR}/server/server_config.cc
  ${STRUCTURE_CONSOLE_SOURCES})
target_link_libraries(structure_server
  PUBLIC structure_engine structure_http structure_base Threads::Threads
  PRIVATE tomlplusplus::tomlplusplus)

list(APPEND STRUCTURE_APP_SOURCES structure/cmd_serve.cc)
list(APPEND STRUCTURE_APP_LIBS structure_server)

# The JSON-RPC lines and tool arguments alone (no engine): also what fuzz/mcp_line_fuzz runs.
add_library(structure_mcp_message STATIC ${CMAKE_CURRENT_LIST_DIR}/mcp/mcp_message.cc)
target_link_libraries(structure_mcp_message PUBLIC structure_content structure_base)
add_library(structure_mcp STATIC ${CMAKE_CURRENT_LIST_DIR}/mcp/mcp_server.cc)
target_link_libraries(structure_mcp PUBLIC structure_mcp_message structure_engine structure_base)

list(APPEND STRUCTURE_APP_SOURCES structure/cmd_mcp.cc)
list(APPEND STRUCTURE_APP_LIBS structure_mcp)
