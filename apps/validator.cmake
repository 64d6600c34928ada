# `structure validate` (issue 3).
list(APPEND STRUCTURE_APP_SOURCES structure/cmd_validate.cc structure/validate_lines.cc structure/schema_refs.cc)
list(APPEND STRUCTURE_APP_LIBS structure_content structure_validator)
