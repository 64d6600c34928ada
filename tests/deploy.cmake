# The Kubernetes manifests of docs/deploy.md: valid YAML with the fields each kind requires
# (python3 with python3-yaml; tomllib for the ConfigMap's TOML).
find_package(Python3 COMPONENTS Interpreter)
if(Python3_Interpreter_FOUND)
  add_test(NAME deploy_manifests
    COMMAND ${Python3_EXECUTABLE} ${CMAKE_CURRENT_SOURCE_DIR}/deploy/check_manifests.py
            ${PROJECT_SOURCE_DIR}/docs/deploy.md)
  set_tests_properties(deploy_manifests PROPERTIES LABELS base TIMEOUT 60)
endif()
