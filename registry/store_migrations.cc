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
      // 2: the console's call records, written by every replica (call_records.h). Kept in a
      // SQLite file only by name: one machine keeps its recent calls in memory.
      {2,
       {"CREATE TABLE IF NOT EXISTS call_records ("
        "  id INTEGER PRIMARY KEY AUTOINCREMENT, at_ms INTEGER NOT NULL,"
        "  tenant TEXT NOT NULL, project TEXT NOT NULL, schema BLOB NOT NULL,"
        "  evidence INTEGER NOT NULL, summary BLOB NOT NULL, detail BLOB NOT NULL)"},
       {"CREATE TABLE IF NOT EXISTS call_records ("
        "  id BIGSERIAL PRIMARY KEY, at_ms BIGINT NOT NULL,"
        "  tenant TEXT NOT NULL, project TEXT NOT NULL, schema BYTEA NOT NULL,"
        "  evidence BOOLEAN NOT NULL, summary BYTEA NOT NULL, detail BYTEA NOT NULL)",
        "CREATE INDEX IF NOT EXISTS call_records_by_tenant ON call_records (tenant, at_ms)",
        "CREATE INDEX IF NOT EXISTS call_records_by_time ON call_records (at_ms)"}},
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
