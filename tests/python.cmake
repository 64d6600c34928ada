# The Python package (python/, docs/python.md): a wheel built against this tree's libraries,
# installed into a fresh venv of Debian's python3, its pytest suite run against `structure sim`.
if(EXISTS /usr/bin/python3)
  add_test(NAME python_package COMMAND ${PROJECT_SOURCE_DIR}/python/tests/wheel_test.sh
    ${PROJECT_BINARY_DIR} ${PROJECT_SOURCE_DIR} $<TARGET_FILE:structure>
    $<IF:$<BOOL:${STRUCTURE_SANITIZE}>,ON,OFF>)
  set_tests_properties(python_package PROPERTIES LABELS python TIMEOUT 900 COST 300)
endif()
