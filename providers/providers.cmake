# Pure wire formats (no I/O) and the curl multi transport (the one I/O piece below actors/).
add_library(structure_providers STATIC
  ${CMAKE_CURRENT_LIST_DIR}/call.cc
  ${CMAKE_CURRENT_LIST_DIR}/endpoint.cc
  ${CMAKE_CURRENT_LIST_DIR}/kinds.cc
  ${CMAKE_CURRENT_LIST_DIR}/models.cc
  ${CMAKE_CURRENT_LIST_DIR}/models_builtin.cc
  ${CMAKE_CURRENT_LIST_DIR}/transport/network.cc
  ${CMAKE_CURRENT_LIST_DIR}/http_status.cc
  ${CMAKE_CURRENT_LIST_DIR}/wire_util.cc
  ${CMAKE_CURRENT_LIST_DIR}/openai/openai_chat.cc
  ${CMAKE_CURRENT_LIST_DIR}/openai/openai_chat_reply.cc
  ${CMAKE_CURRENT_LIST_DIR}/openai/openai_responses.cc
  ${CMAKE_CURRENT_LIST_DIR}/openai/openai_responses_reply.cc
  ${CMAKE_CURRENT_LIST_DIR}/openai_compat/openai_compat.cc
  ${CMAKE_CURRENT_LIST_DIR}/openai_compat/known_servers.cc
  ${CMAKE_CURRENT_LIST_DIR}/openai_compat/openrouter.cc
  ${CMAKE_CURRENT_LIST_DIR}/anthropic/anthropic_messages.cc
  ${CMAKE_CURRENT_LIST_DIR}/gemini/gemini_generate.cc
  ${CMAKE_CURRENT_LIST_DIR}/ollama/ollama_chat.cc
  ${CMAKE_CURRENT_LIST_DIR}/prompt_cache.cc
  ${CMAKE_CURRENT_LIST_DIR}/wire.cc
  ${CMAKE_CURRENT_LIST_DIR}/thinking.cc
  ${CMAKE_CURRENT_LIST_DIR}/batch_wire.cc
  ${CMAKE_CURRENT_LIST_DIR}/openai/openai_batch.cc
  ${CMAKE_CURRENT_LIST_DIR}/anthropic/anthropic_batch.cc
  ${CMAKE_CURRENT_LIST_DIR}/gemini/gemini_batch.cc
  ${CMAKE_CURRENT_LIST_DIR}/admission/rate_limit.cc
  ${CMAKE_CURRENT_LIST_DIR}/admission/shared_admission.cc
  ${CMAKE_CURRENT_LIST_DIR}/admission/shared_limit.cc
  ${CMAKE_CURRENT_LIST_DIR}/admission/dispatch_queue.cc)
target_link_libraries(structure_providers PUBLIC structure_base)

add_library(structure_transport STATIC
  ${CMAKE_CURRENT_LIST_DIR}/transport/curl_ca_store.cc
  ${CMAKE_CURRENT_LIST_DIR}/transport/curl_failure.cc
  ${CMAKE_CURRENT_LIST_DIR}/transport/curl_header_lists.cc
  ${CMAKE_CURRENT_LIST_DIR}/transport/curl_network.cc
  ${CMAKE_CURRENT_LIST_DIR}/transport/curl_transfer.cc
  ${CMAKE_CURRENT_LIST_DIR}/transport/curl_transport.cc
  ${CMAKE_CURRENT_LIST_DIR}/transport/epoll_sockets.cc)
target_link_libraries(structure_transport PUBLIC structure_providers structure_base CURL::libcurl
  OpenSSL::SSL Threads::Threads)
