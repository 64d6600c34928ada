# Our JSON Schema validator (issue 3): compiled schemas, simdjson instances, RE2 patterns.
add_library(structure_validator STATIC
  validator.cc
  validator_backtrack.cc
  validator_backtrack_parse.cc
  validator_backtrack_program.cc
  validator_compile.cc
  validator_eval.cc
  validator_eval_applicator.cc
  validator_eval_array.cc
  validator_eval_object.cc
  validator_formats.cc
  validator_idna.cc
  validator_index.cc
  validator_messages.cc
  validator_metaschemas.cc
  validator_plan.cc
  validator_regex.cc
  validator_regex_translate.cc
  validator_uri.cc
  validator_values.cc)
target_link_libraries(structure_validator PUBLIC structure_base simdjson::simdjson PkgConfig::RE2)
