# The bad-input table: the rows of tests/data/bad_inputs/*.tsv, run against the
# `structure` binary (commands, HTTP requests, MCP lines, scripted provider replies).
structure_add_tests(NAME bad_inputs_tests LABEL apps COST 100 USES_BINARY
  SOURCES
    bad_inputs/bad_inputs_test.cc
    bad_inputs/row_runner.cc
    bad_inputs/run_process.cc
    bad_inputs/table.cc
    bad_inputs/table_test.cc
  LIBS structure_base)
