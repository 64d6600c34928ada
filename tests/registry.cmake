# Tests of the schema registry (registry/): names, versions, bundled schemas, store, cascade.
# The store's tests run against SQLite and against a PostgreSQL server they start
# (tests/support/postgres_server.h).
structure_add_tests(NAME registry_tests LABEL registry
  SOURCES
    registry/bundled_schemas_test.cc
    registry/call_records_test.cc
    registry/fallback_schema_store_test.cc
    registry/registry_put_test.cc
    registry/registry_replicas_test.cc
    registry/registry_history_test.cc
    registry/registry_store_test.cc
    registry/schema_compat_test.cc
    registry/schema_name_test.cc
    registry/schema_registry_test.cc
    registry/schema_store_test.cc
    registry/schema_version_test.cc
  LIBS structure_registry PkgConfig::LIBPQ SQLite::SQLite3)
