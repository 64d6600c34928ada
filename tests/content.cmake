structure_add_tests(NAME content_tests LABEL pipeline
  SOURCES pipeline/content_loop_test.cc pipeline/content_loop_limits_test.cc pipeline/answer_form_test.cc pipeline/extract_json_test.cc
    pipeline/prompt_test.cc pipeline/reason_test.cc pipeline/schema_builder_test.cc
    pipeline/request_test.cc pipeline/array_answer_test.cc
    pipeline/call_stats_test.cc pipeline/call_trace_test.cc pipeline/evidence_loop_test.cc
    pipeline/conversation_test.cc pipeline/plan_options_test.cc
  LIBS structure_content)
