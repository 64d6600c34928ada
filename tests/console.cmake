# The web console (docs/console.md). Both tests need node and npm (packages from lock files);
# the browser test also needs Debian's chromium (make deps installs it).
find_program(STRUCTURE_NODE node)
find_program(STRUCTURE_NPM npm)
find_program(STRUCTURE_CHROMIUM chromium)
if(STRUCTURE_NODE AND STRUCTURE_NPM)
  # The committed server/console/dist (embedded in the binary) is what its sources build to.
  add_test(NAME console_assets_current
    COMMAND sh ${PROJECT_SOURCE_DIR}/server/console/check_build.sh
            ${PROJECT_BINARY_DIR}/console-assets-check)
  set_tests_properties(console_assets_current PROPERTIES LABELS apps TIMEOUT 300)
else()
  message(WARNING "node or npm not found: the console tests are not run")
endif()
if(STRUCTURE_NODE AND STRUCTURE_NPM AND STRUCTURE_CHROMIUM)
  # Each page in headless Chromium; screenshots go to build/<tree>/console-screenshots.
  add_test(NAME console_browser
    COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/console/run_test.sh $<TARGET_FILE:structure>
            ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/console-screenshots)
  set_tests_properties(console_browser PROPERTIES LABELS apps TIMEOUT 300
    ENVIRONMENT CHROMIUM=${STRUCTURE_CHROMIUM})
elseif(STRUCTURE_NODE AND STRUCTURE_NPM)
  message(WARNING "chromium not found (make deps installs it): the console browser test is not run")
endif()
