# HTTP API and MCP server tests (label apps): unit tests plus spawned `structure serve` and
# `structure sim` processes on loopback.
structure_add_tests(NAME server_tests LABEL apps USES_BINARY
  SOURCES
    server/connection_limits_test.cc
    server/http_api_test.cc
    server/mcp_server_test.cc
    server/metrics_test.cc
    server/server_config_test.cc
    server/shutdown_test.cc
  LIBS structure_server structure_mcp structure_config CURL::libcurl)

# The MCP server through the official MCP TypeScript SDK client (needs node and npm; the SDK is
# installed from tests/server/mcp/package-lock.json on the first run).
find_program(STRUCTURE_NODE node)
find_program(STRUCTURE_NPM npm)
if(STRUCTURE_NODE AND STRUCTURE_NPM)
  add_test(NAME mcp_sdk_client
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/server/mcp/run_test.sh $<TARGET_FILE:structure>
            ${CMAKE_CURRENT_SOURCE_DIR}/data/server/scenario.json)
  set_tests_properties(mcp_sdk_client PROPERTIES LABELS apps TIMEOUT 300)
endif()
