# The split loop (issue 29): parts at once, merge, proof against the original, re-asks.
structure_add_tests(NAME split_loop_tests LABEL pipeline
  SOURCES pipeline/split_loop_test.cc
  LIBS structure_content)
# The generated 369-leaf financial report through the simulator on each provider, and the
# schema commands on it.
structure_add_tests(NAME split_e2e_tests LABEL actors USES_BINARY
  SOURCES engine/engine_split_test.cc apps/schema_split_cli_test.cc
  LIBS structure_engine structure_lowering structure_validator CURL::libcurl)
# Long documents (issue 45): the input split, the merge of the parts' answers and the decision.
structure_add_tests(NAME input_split_tests LABEL pipeline
  SOURCES pipeline/input/split_test.cc pipeline/input/merge_test.cc pipeline/input/plan_test.cc
  LIBS structure_content)
# The acceptance of issue 45: a 300 KB invoice through `structure run` and `structure batch`
# against a simulated 8 192-token model.
structure_add_tests(NAME long_document_tests LABEL apps USES_BINARY
  SOURCES apps/long_document_cli_test.cc
  LIBS structure_base CURL::libcurl)
# The same through the library against an in-process simulator.
structure_add_tests(NAME long_document_engine_tests LABEL actors
  SOURCES engine/long_document_engine_test.cc
  LIBS structure_engine structure_sim CURL::libcurl)
