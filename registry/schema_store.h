// Persistent tenant and project schema overrides: one row per (tenant, project, name) with
// version, schema text, manual and update time, plus the history of every put. Pure storage:
// names, versions and the cascade are the registry's business (schema_registry.h). Two
// implementations behind one interface: SQLite (a file, the embedded default; sqlite_schema_
// store.h) and PostgreSQL (shared by replicas; postgres_schema_store.h).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "structure/status.h"

namespace structure::registry {

// Where a row lives. project == "" is the tenant level; tenant is never empty.
struct StoreKey {
  std::string tenant;
  std::string project;
};

struct StoredSchema {
  std::string name;
  std::string version;
  std::string schema;  // JSON text as put
  std::string manual;
  int64_t updated_at_ms = 0;
  // Read only (Get, List, History): the position of this put in the name's history at its key,
  // 1, 2, ... in commit order. Ignored by Put.
  int64_t revision = 0;
};

// Thread-safe: every call may come from any thread. Errors: kUnavailable when the database
// cannot be reached or is busy (worth a retry), kInternal for anything else.
class SchemaStore {
 public:
  // Opens `location`: a PostgreSQL URL (database_url.h), else a SQLite file (created when
  // absent; ":memory:" gives a private in-memory store). Applies the pending migrations
  // (store_migrations.h). kUnavailable when the database cannot be opened or reached;
  // kFailedPrecondition when it was migrated by a newer binary.
  static Result<std::unique_ptr<SchemaStore>> Open(const std::string& location);

  virtual ~SchemaStore() = default;

  // The row for `name` at exactly `key` (no cascade), or nullopt.
  virtual Result<std::optional<StoredSchema>> Get(const StoreKey& key,
                                                  std::string_view name) const = 0;

  // Every row at exactly `key`, sorted by name.
  virtual Result<std::vector<StoredSchema>> List(const StoreKey& key) const = 0;

  // Inserts or replaces the row (key, schema.name) and appends it to the name's history (the
  // last 50 puts are kept), in one transaction. With `expect_revision`, only when the row's
  // current revision is still that (0: no row), else kFailedPrecondition and nothing written:
  // a check made on what was read and the write it allows are atomic across processes.
  Status Put(const StoreKey& key, const StoredSchema& schema,
             std::optional<int64_t> expect_revision = std::nullopt) {
    return Write(key, schema, expect_revision);
  }

  // Every version put at exactly `key` under `name`, newest first (a deleted row's history
  // stays).
  virtual Result<std::vector<StoredSchema>> History(const StoreKey& key,
                                                    std::string_view name) const = 0;

  // Removes the row; kNotFound when there is none.
  virtual Status Delete(const StoreKey& key, std::string_view name) = 0;

  // Whether the database answers now (PostgreSQL: one round trip, or the reason it cannot be
  // reached); a file is always fine.
  virtual Status Health() const { return Status::Ok(); }

 protected:
  SchemaStore() = default;
  virtual Status Write(const StoreKey& key, const StoredSchema& schema,
                       std::optional<int64_t> expect_revision) = 0;

 private:
  SchemaStore(const SchemaStore&) = delete;
  SchemaStore& operator=(const SchemaStore&) = delete;
};

}  // namespace structure::registry
