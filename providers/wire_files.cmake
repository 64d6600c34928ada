# Files in provider calls: which kind takes which media type, and the parts' shared pieces.
target_sources(structure_providers PRIVATE ${CMAKE_CURRENT_LIST_DIR}/file_parts.cc)
