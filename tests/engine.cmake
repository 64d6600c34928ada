structure_add_tests(NAME engine_tests LABEL actors USES_BINARY
  SOURCES engine/engine_test.cc engine/engine_create_test.cc actors/plan_cache_test.cc
          actors/loop_driver_test.cc engine/engine_shared_test.cc engine/engine_thinking_test.cc
          engine/engine_faults_test.cc actors/check_runner_test.cc engine/engine_prompt_forms_test.cc
          engine/engine_evidence_test.cc engine/engine_reply_shapes_test.cc
          engine/engine_final_tool_test.cc engine/engine_checks_test.cc
          engine/engine_array_mode_test.cc engine/engine_prompt_cache_test.cc
  LIBS structure_engine CURL::libcurl)
