# Validator (issue 3): the official JSON Schema test suite, safety cases, messages, the CLI.
structure_add_tests(NAME validator_tests LABEL pipeline
  SOURCES
    pipeline/validator_suite_test.cc
    pipeline/validator_safety_test.cc
    pipeline/validator_errors_test.cc
    pipeline/validator_cli_test.cc
    pipeline/validator_realworld_test.cc
  LIBS structure_validator)
# The valijson cross-check compiles slowly: its own binary, so the others rebuild fast.
structure_add_tests(NAME validator_valijson_tests LABEL pipeline
  SOURCES pipeline/validator_valijson_test.cc
  LIBS structure_validator)
