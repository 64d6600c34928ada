# Provider layer: pure wire formats, limiter logic, the curl transport, and the pool actor.
structure_add_tests(NAME providers_tests LABEL providers USES_BINARY
  SOURCES
    providers/openai_chat_test.cc
    providers/openai_body_bytes_test.cc
    providers/openai_chat_reply_test.cc
    providers/openai_responses_test.cc
    providers/anthropic_messages_test.cc
    providers/gemini_generate_test.cc
    providers/ollama_chat_test.cc
    providers/wire_replies_test.cc
    providers/recorded_replies_test.cc
    providers/reply_variants_test.cc
    providers/thinking_test.cc
    providers/models_test.cc
    providers/kinds_test.cc
    providers/request_schema_check.cc
    providers/request_schema_test.cc
    providers/openai_batch_test.cc
    providers/anthropic_batch_test.cc
    providers/gemini_batch_test.cc
    providers/prompt_cache_test.cc
    providers/wire_text_test.cc
    providers/call_params_test.cc
    providers/http_status_test.cc
    providers/endpoint_test.cc
    providers/rate_limit_test.cc
    providers/shared_admission_test.cc
    providers/dispatch_queue_test.cc
    providers/curl_transport_test.cc
    providers/epoll_sockets_test.cc
    providers/curl_header_lists_test.cc
  LIBS structure_providers structure_transport structure_validator)

structure_add_tests(NAME pool_tests LABEL actors USES_BINARY
  SOURCES
    actors/provider_pool_test.cc
    actors/pool_deadline_test.cc
    actors/pool_sim_test.cc
    actors/pool_shared_test.cc
  LIBS structure_pool)

# Proxies, CAs and TLS: pure resolution, and the transport against nginx (TLS 1.3 + HTTP/2, its
# own fixed-reply server behind it) and tinyproxy; needs no `structure` binary.
structure_add_tests(NAME network_tests LABEL providers
  SOURCES
    providers/network_test.cc
    providers/tls_transport_test.cc
  LIBS structure_providers structure_transport structure_validator)
