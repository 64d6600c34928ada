structure_add_tests(NAME engine_tests LABEL actors USES_BINARY
  SOURCES actors/engine_test.cc actors/engine_create_test.cc actors/plan_cache_test.cc
          actors/loop_driver_test.cc actors/engine_shared_test.cc actors/engine_thinking_test.cc
          actors/engine_faults_test.cc actors/check_runner_test.cc actors/engine_prompt_forms_test.cc
          actors/engine_evidence_test.cc
  LIBS structure_engine CURL::libcurl)
