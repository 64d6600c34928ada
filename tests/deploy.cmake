# The Kubernetes manifests of docs/deploy.md: valid YAML with the fields each kind requires
# (Debian's python3 with python3-yaml, from the Makefile's packages; tomllib for the ConfigMap's
# TOML). Debian's interpreter by its path: another python3 may come first on PATH without yaml.
if(EXISTS /usr/bin/python3)
  add_test(NAME deploy_manifests
    COMMAND /usr/bin/python3 ${CMAKE_CURRENT_SOURCE_DIR}/deploy/check_manifests.py
            ${PROJECT_SOURCE_DIR}/docs/deploy.md)
  set_tests_properties(deploy_manifests PROPERTIES LABELS base TIMEOUT 60)
endif()
