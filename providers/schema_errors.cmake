# The provider errors that say a schema is too large to compile (the engine splits it).
target_sources(structure_providers PRIVATE ${CMAKE_CURRENT_LIST_DIR}/schema_too_large.cc)
target_sources(structure_providers PRIVATE ${CMAKE_CURRENT_LIST_DIR}/context_too_long.cc)
