# Validator: the official JSON Schema test suite, safety cases, messages, the CLI.
structure_add_tests(NAME validator_tests LABEL pipeline USES_BINARY
  SOURCES
    pipeline/validator/suite_test.cc
    pipeline/validator/safety_test.cc
    pipeline/validator/errors_test.cc
    pipeline/validator/cli_test.cc
    pipeline/validator/cli_refs_test.cc
    pipeline/validator/realworld_test.cc
    pipeline/validator/fail_closed_test.cc
  LIBS structure_validator structure_content)
# The valijson cross-check compiles slowly: its own binary, so the others rebuild fast.
structure_add_tests(NAME validator_valijson_tests LABEL pipeline
  SOURCES pipeline/validator/valijson_test.cc
  LIBS structure_validator)
# valijson pulls in libstdc++'s <regex>, where g++ 12 at -O1 with sanitizers reports a false
# -Wmaybe-uninitialized inside std::function moves (regex_automaton.h); not our code.
set_source_files_properties(pipeline/validator/valijson_test.cc PROPERTIES
  COMPILE_OPTIONS "-Wno-maybe-uninitialized")
