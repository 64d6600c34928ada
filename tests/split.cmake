# The split loop (issue 29): parts at once, merge, proof against the original, re-asks.
structure_add_tests(NAME split_loop_tests LABEL pipeline
  SOURCES pipeline/split_loop_test.cc
  LIBS structure_content)
