# The content stage: reason text, tolerant parsing, prompts, the loop step function, results.
add_library(structure_content STATIC
  ${CMAKE_CURRENT_LIST_DIR}/content_loop.cc
  ${CMAKE_CURRENT_LIST_DIR}/extract_json.cc
  ${CMAKE_CURRENT_LIST_DIR}/prompt.cc
  ${CMAKE_CURRENT_LIST_DIR}/reason.cc
  ${CMAKE_CURRENT_LIST_DIR}/request.cc
  ${CMAKE_CURRENT_LIST_DIR}/result.cc
  ${CMAKE_CURRENT_LIST_DIR}/schema_builder.cc
  ${CMAKE_CURRENT_LIST_DIR}/schema_stage.cc)
target_link_libraries(structure_content PUBLIC structure_lowering structure_validator structure_config structure_base)
