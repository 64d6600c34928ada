# `structure schema lower|check` (issue 4).
list(APPEND STRUCTURE_APP_SOURCES structure/cmd_schema.cc)
list(APPEND STRUCTURE_APP_LIBS structure_content structure_lowering structure_generate)
