// Persistent tenant and project schema overrides in SQLite: one row per (tenant, project, name)
// with version, schema text, manual and update time. Pure storage: names, versions and the
// cascade are the registry's business (schema_registry.h).
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

struct sqlite3;

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
};

// Thread-safe: one SQLite connection guarded by a mutex, so every call may come from any thread.
// The file may be shared with other stores of the engine (tables are prefixed "registry_"); it
// runs in WAL mode with a busy timeout so other connections to the same file can read meanwhile.
class SchemaStore {
 public:
  // Opens (creating when absent) the database at `path`; ":memory:" gives a private in-memory
  // store. kUnavailable when the file cannot be opened or its table cannot be created.
  static Result<std::unique_ptr<SchemaStore>> Open(const std::string& path);

  ~SchemaStore();
  SchemaStore(const SchemaStore&) = delete;
  SchemaStore& operator=(const SchemaStore&) = delete;

  // The row for `name` at exactly `key` (no cascade), or nullopt.
  Result<std::optional<StoredSchema>> Get(const StoreKey& key, std::string_view name) const;

  // Every row at exactly `key`, sorted by name.
  Result<std::vector<StoredSchema>> List(const StoreKey& key) const;

  // Inserts or replaces the row (key, schema.name) and appends it to the name's history (the
  // last 50 puts are kept), in one transaction.
  Status Put(const StoreKey& key, const StoredSchema& schema);
  // Every version put at exactly `key` under `name`, newest first (a deleted row's history
  // stays).
  Result<std::vector<StoredSchema>> History(const StoreKey& key, std::string_view name) const;

  // Removes the row; kNotFound when there is none.
  Status Delete(const StoreKey& key, std::string_view name);

 private:
  explicit SchemaStore(sqlite3* db) : db_(db) {}
  Status WriteLocked(const StoreKey& key,
                     const StoredSchema& schema);  // mu_ held, in a transaction

  mutable std::mutex mu_;
  sqlite3* db_;  // owned; guarded by mu_
};

}  // namespace structure::registry
