# structure_install_into(BUILD_DIR PREFIX): `cmake --install` of a build tree into PREFIX, for
# the tests that check the installed tree (install_tree_test.cmake, consumer_test.cmake). Fails
# the calling script when the install fails.
function(structure_install_into build_dir prefix)
  execute_process(COMMAND ${CMAKE_COMMAND} --install "${build_dir}" --prefix "${prefix}"
    RESULT_VARIABLE rc OUTPUT_QUIET)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install failed: ${rc}")
  endif()
endfunction()
