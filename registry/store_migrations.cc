#include "registry/store_migrations.h"

namespace structure::registry {

const std::vector<Migration>& StoreMigrations() {
  static const std::vector<Migration> migrations = {
      // 1: the registry's overrides (one row per tenant, project and name) and their history
      // (every put, at most 50 per name and key). IF NOT EXISTS: SQLite files made before
      // migrations were recorded already have these tables.
      {1,
       {"CREATE TABLE IF NOT EXISTS registry_schemas ("
        "  tenant TEXT NOT NULL, project TEXT NOT NULL, name TEXT NOT NULL,"
        "  version TEXT NOT NULL, schema TEXT NOT NULL, manual TEXT NOT NULL,"
        "  updated_at_ms INTEGER NOT NULL,"
        "  PRIMARY KEY (tenant, project, name)) WITHOUT ROWID",
        "CREATE TABLE IF NOT EXISTS registry_schema_versions ("
        "  tenant TEXT NOT NULL, project TEXT NOT NULL, name TEXT NOT NULL,"
        "  seq INTEGER NOT NULL, version TEXT NOT NULL, schema TEXT NOT NULL,"
        "  manual TEXT NOT NULL, updated_at_ms INTEGER NOT NULL,"
        "  PRIMARY KEY (tenant, project, name, seq)) WITHOUT ROWID"},
       // Schema and manual are bytes: a manual may hold any bytes (NUL, invalid UTF-8), which
       // PostgreSQL's TEXT refuses.
       {"CREATE TABLE IF NOT EXISTS registry_schemas ("
        "  tenant TEXT NOT NULL, project TEXT NOT NULL, name TEXT NOT NULL,"
        "  version TEXT NOT NULL, schema BYTEA NOT NULL, manual BYTEA NOT NULL,"
        "  updated_at_ms BIGINT NOT NULL,"
        "  PRIMARY KEY (tenant, project, name))",
        "CREATE TABLE IF NOT EXISTS registry_schema_versions ("
        "  tenant TEXT NOT NULL, project TEXT NOT NULL, name TEXT NOT NULL,"
        "  seq BIGINT NOT NULL, version TEXT NOT NULL, schema BYTEA NOT NULL,"
        "  manual BYTEA NOT NULL, updated_at_ms BIGINT NOT NULL,"
        "  PRIMARY KEY (tenant, project, name, seq))"}},
  };
  return migrations;
}

int64_t LatestStoreVersion() { return StoreMigrations().back().version; }

Status CheckStoreVersion(int64_t found, const std::string& where) {
  if (found <= LatestStoreVersion()) return Status::Ok();
  return Status(Code::kFailedPrecondition,
                "registry store: " + where + " has table layout version " + std::to_string(found) +
                    ", newer than this binary knows (" + std::to_string(LatestStoreVersion()) +
                    "): it was migrated by a newer structure; run that version (or newer), or "
                    "point stores.database at another database");
}

}  // namespace structure::registry
