# The engine's threads hand memory to each other (request bodies go from CAF workers to the curl
# I/O thread, replies come back), and glibc malloc serialises such cross-thread frees on arena
# locks. tcmalloc's thread caches (Debian: libtcmalloc-minimal4) cut the engine's CPU per
# provider call by 20-30 % (bench_pool, docs/providers.md). Executables link it with
# structure_use_fast_malloc(target); sanitizer builds keep the sanitizer's allocator.
option(STRUCTURE_TCMALLOC "link executables with tcmalloc when it is installed" ON)
set(STRUCTURE_TCMALLOC_LIB "")
if(STRUCTURE_TCMALLOC AND NOT STRUCTURE_SANITIZE)
  find_library(STRUCTURE_TCMALLOC_PATH NAMES tcmalloc_minimal libtcmalloc_minimal.so.4)
  if(STRUCTURE_TCMALLOC_PATH)
    set(STRUCTURE_TCMALLOC_LIB ${STRUCTURE_TCMALLOC_PATH})
    message(STATUS "structure: executables use tcmalloc (${STRUCTURE_TCMALLOC_PATH})")
  else()
    message(STATUS "structure: tcmalloc not found, executables use the system malloc")
  endif()
endif()

function(structure_use_fast_malloc target)
  if(STRUCTURE_TCMALLOC_LIB)
    # Last on the link line, so it provides malloc for the whole program.
    target_link_libraries(${target} PRIVATE ${STRUCTURE_TCMALLOC_LIB})
  endif()
endfunction()
