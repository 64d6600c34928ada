# Schema registry: bundled schemas (files), tenant/project overrides (SQLite or PostgreSQL),
# lookup cascade.
add_library(structure_registry STATIC
  bundled_schemas.cc
  call_record_writer.cc
  fallback_schema_store.cc
  postgres_call_records.cc
  postgres_connection.cc
  postgres_schema_store.cc
  sqlite_schema_store.cc
  store_migrations.cc
  schema_document.cc
  schema_compat.cc
  schema_name.cc
  schema_registry.cc
  schema_store.cc
  schema_version.cc)
target_link_libraries(structure_registry PUBLIC structure_base
  PRIVATE structure_config SQLite::SQLite3 PkgConfig::LIBPQ)
