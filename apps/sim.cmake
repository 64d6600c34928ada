# The provider simulator (`structure sim`) and the reusable async HTTP/1.1 server under it.
add_library(structure_http STATIC
  ${CMAKE_CURRENT_LIST_DIR}/http/detail/connection.cc
  ${CMAKE_CURRENT_LIST_DIR}/http/http_message.cc
  ${CMAKE_CURRENT_LIST_DIR}/http/http_server.cc)
target_link_libraries(structure_http PUBLIC structure_base Boost::boost Threads::Threads)

add_library(structure_sim STATIC
  ${CMAKE_CURRENT_LIST_DIR}/sim/answer_builder.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/batch_store.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/basic_schema_check.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/chat.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/corrupt.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/gemini_thinking.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/grounding.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/latency.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/need_forms.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/prompt_cache.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/rate_limiter.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/raw_json.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/scenario.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/schema_check.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/sim_anthropic.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/sim_batches.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/sim_batches_anthropic.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/sim_batches_gemini.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/sim_batches_openai.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/sim_gemini.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/sim_ollama.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/sim_openai.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/sim_server.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/simulator.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/request_log.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/stats.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/thinking.cc
  ${CMAKE_CURRENT_LIST_DIR}/sim/wire_util.cc)
# structure_providers: the documented prompt-cache minimums (providers/prompt_cache.h).
target_link_libraries(structure_sim PUBLIC structure_http structure_generate structure_providers structure_validator
                      PkgConfig::RE2 structure_base)
# Provider-style 400s use the lowering library's strict checker when this tree builds it.
if(TARGET structure_lowering AND EXISTS ${PROJECT_SOURCE_DIR}/pipeline/lowering/strict_check.h)
  target_link_libraries(structure_sim PUBLIC structure_lowering)
  target_compile_definitions(structure_sim PRIVATE STRUCTURE_SIM_HAS_STRICT_CHECK)
endif()

list(APPEND STRUCTURE_APP_SOURCES structure/cmd_sim.cc)
list(APPEND STRUCTURE_APP_LIBS structure_sim)
