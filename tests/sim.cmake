# Simulator and HTTP server tests (label apps): in-process servers on port 0 plus one spawned
# `structure sim` process.
structure_add_tests(NAME sim_tests LABEL apps USES_BINARY
  SOURCES
    sim/faults_test.cc
    sim/grounding_test.cc
    sim/http_server_test.cc
    sim/prompt_cache_test.cc
    sim/scenario_test.cc
    sim/schema_check_test.cc
    sim/sim_anthropic_test.cc
    sim/sim_cli_test.cc
    sim/sim_gemini_test.cc
    sim/sim_ollama_test.cc
    sim/sim_openai_test.cc
    sim/sim_responses_test.cc
    sim/sim_thinking_test.cc
    sim/sim_model_checks_test.cc
    sim/sim_reply_shapes_test.cc
    sim/sim_batches_test.cc
    sim/sim_test_client.cc
  LIBS structure_sim CURL::libcurl)
