# HTTP API and MCP server tests (label apps): unit tests plus spawned `structure serve` and
# `structure sim` processes on loopback.
structure_add_tests(NAME server_tests LABEL apps USES_BINARY
  SOURCES
    server/connection_limits_test.cc
    server/console_http_test.cc
    server/console_unit_test.cc
    server/http_api_test.cc
    server/mcp_server_test.cc
    server/metrics_test.cc
    server/openai_endpoint_test.cc
    server/openai/chat_reply_test.cc
    server/openai/chat_request_test.cc
    server/openai/models_test.cc
    server/openai/responses_request_test.cc
    server/openai/responses_reply_test.cc
    server/openai/streamed_answer_test.cc
    server/result_status_test.cc
    server/server_config_test.cc
    server/shutdown_test.cc
  LIBS structure_server structure_mcp structure_config CURL::libcurl)

# The MCP server through the official MCP TypeScript SDK client (needs node and npm, found in
# tests/console.cmake; the SDK is installed from tests/server/mcp/package-lock.json on the first
# run).
if(STRUCTURE_NODE AND STRUCTURE_NPM)
  add_test(NAME mcp_sdk_client
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/server/mcp/run_test.sh $<TARGET_FILE:structure>
            ${CMAKE_CURRENT_SOURCE_DIR}/data/server/scenario.json)
  set_tests_properties(mcp_sdk_client PROPERTIES LABELS apps TIMEOUT 300)
endif()

# POST /v1/chat/completions and /v1/responses through real OpenAI clients (needs node and npm;
# the clients are installed from tests/server/openai_clients/package-lock.json and
# agents/package-lock.json by the setup test).
if(STRUCTURE_NODE AND STRUCTURE_NPM)
  set(_clients ${CMAKE_CURRENT_SOURCE_DIR}/server/openai_clients)
  add_test(NAME openai_clients_install COMMAND sh ${_clients}/run_test.sh install)
  set_tests_properties(openai_clients_install PROPERTIES LABELS apps TIMEOUT 600 COST 2000
    FIXTURES_SETUP openai_clients)
  foreach(_client openai_sdk vercel_ai langchain instructor gateway)
    add_test(NAME openai_client_${_client}
      COMMAND sh ${_clients}/run_test.sh ${_client}_test.mjs $<TARGET_FILE:structure>)
    set_tests_properties(openai_client_${_client} PROPERTIES LABELS apps TIMEOUT 300
      FIXTURES_REQUIRED openai_clients)
  endforeach()
  # The OpenAI Agents SDK (POST /v1/responses), from its own lock file in agents/.
  add_test(NAME openai_client_agents
    COMMAND sh ${_clients}/run_test.sh agents/agents_test.mjs $<TARGET_FILE:structure>)
  set_tests_properties(openai_client_agents PROPERTIES LABELS apps TIMEOUT 300
    FIXTURES_REQUIRED openai_clients)
endif()

# The fleet (docs/deploy.md): 3 serve replicas behind haproxy sharing one redis-server, 1 200
# requests through the official SDK at the simulator's 600 requests/min, one replica SIGKILLed
# mid-run. About 2.5 minutes; label `fleet`.
if(STRUCTURE_NODE AND STRUCTURE_NPM)
  add_test(NAME openai_fleet
    COMMAND sh ${_clients}/run_test.sh fleet_test.mjs $<TARGET_FILE:structure>)
  set_tests_properties(openai_fleet PROPERTIES LABELS "fleet;apps" TIMEOUT 400 COST 1000
    FIXTURES_REQUIRED openai_clients)
endif()

# Two `structure serve` replicas on one PostgreSQL database the test starts (Debian's
# postgresql): shared registry, concurrent puts, a database restart (about 10 s).
structure_add_tests(NAME replicas_tests LABEL apps USES_BINARY
  SOURCES server/replicas_test.cc
  LIBS structure_base CURL::libcurl PkgConfig::LIBPQ)
