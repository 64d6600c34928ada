// The schema registry: bundled schemas (files, read-only) plus tenant and project overrides (a
// SQLite file or PostgreSQL, schema_store.h), looked up along the cascade project -> tenant ->
// bundled, first match wins.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "registry/registered_schema.h"
#include "registry/schema_document.h"
#include "registry/schema_store.h"
#include "structure/status.h"

namespace structure::registry {

struct RegistryOptions {
  DocumentLimits limits;                 // schema text: 1 MiB, nesting 128
  size_t max_manual_bytes = 256 * 1024;  // manual text
  // Optional extra check run on every schema before Put stores it, e.g. compiling it with the
  // pipeline's validator (the registry cannot depend on pipeline/). Its error is returned as is.
  std::function<Status(const Json& schema)> check_schema;
  // Clock for updated_at_ms (unix milliseconds); the system clock when empty.
  std::function<int64_t()> now_ms;
  // With PostgreSQL: while the database is unreachable, lookups are answered from the last
  // answer read for at most this long, then fail kUnavailable (fallback_schema_store.h).
  std::chrono::milliseconds outage_reads{std::chrono::seconds(60)};
};

// Thread-safe: bundled schemas are immutable after Open; the store serializes its own access;
// Put and Delete are serialized among themselves within the process. Across processes sharing
// one store (a SQLite file, or PostgreSQL for replicas), a put's checks and its write are
// atomic too: the store writes only when the name's revision is still the one checked against,
// else the checks run again (schema_store.h). Every put that answers OK is in the history, in
// one total order.
class SchemaRegistry {
 public:
  // Loads the bundled schemas from `bundled_dir` ("" = none; see bundled_schemas.h for the
  // layout and errors) and opens the override store at `database` (a SQLite file, ":memory:"
  // for a private one, or a PostgreSQL URL). Errors from either are returned unchanged.
  static Result<std::unique_ptr<SchemaRegistry>> Open(const std::string& bundled_dir,
                                                      const std::string& database,
                                                      RegistryOptions options = {});

  // The effective schema for `name` in `scope`: the project's override, else the tenant's, else
  // the bundled one. kInvalidArgument for a bad name or scope; kNotFound when no level has it
  // (the message names only the levels searched, never another tenant); kInternal when a stored
  // row no longer parses; store errors as returned by SchemaStore.
  Result<RegisteredSchema> Find(std::string_view name, const Scope& scope) const;

  // Every schema visible in `scope` (bundled, the tenant's, the project's), one effective entry
  // per name sorted by name, each with the origins it shadows. Never another tenant's schemas.
  Result<std::vector<RegisteredSchema>> List(const Scope& scope) const;

  // The entry stored at exactly `scope` (no cascade; an empty tenant reads the bundled level).
  // kNotFound when that level has no such name.
  Result<RegisteredSchema> Get(const Scope& scope, std::string_view name) const;

  // Stores `record` at `scope` (tenant level when scope.project is empty; the bundled level is
  // read-only). The version is record.version, or the schema's "x-version" when that is empty;
  // when both are given they must agree. Versions follow the seed: an existing entry of the same
  // name at the same scope may only move to a version with the same MAJOR and a MINOR not lower
  // (it is then replaced in place), and an override must keep the MAJOR of the entry it shadows
  // at the levels below. Within one MAJOR versions must be compatible (schema_compat.h): the
  // new schema is a minor step from the entry it replaces, and of each same-MAJOR entry at the
  // levels below, whichever of the two is the higher version is a minor step from the other.
  // Adding a required property, removing a property, narrowing a type or tightening a bound is
  // refused, naming each change and suggesting "<name>-v<major+1>".
  // kInvalidArgument, with a clear message, for: bad scope or name,
  // missing/invalid version, a version change those rules forbid ("a breaking change needs a new
  // name, e.g. <name>-v2"), schema text that is too large, not JSON (with line:col), not an
  // object or boolean, a manual over its limit; plus whatever check_schema returns.
  Status Put(const Scope& scope, const SchemaRecord& record);

  // What Put would answer, without storing anything (an editor's check before saving).
  Status CheckPut(const Scope& scope, const SchemaRecord& record) const;

  // Every version put at exactly `scope` under `name`, newest first (the last 50; kept after a
  // Delete). The bundled level (empty tenant) has its one file, when it has the name.
  Result<std::vector<RegisteredSchema>> History(const Scope& scope, std::string_view name) const;

  // Removes the entry stored at exactly `scope`; lower levels become visible again. kNotFound
  // when that level has no such name; kInvalidArgument for the bundled level or a bad scope/name.
  Status Delete(const Scope& scope, std::string_view name);

  // Whether the override store's database answers now (/healthz, /readyz).
  Status StoreHealth() const { return store_->Health(); }

 private:
  SchemaRegistry(std::map<std::string, RegisteredSchema> bundled,
                 std::unique_ptr<SchemaStore> store, RegistryOptions options);

  // Entries for `name` in `scope` from the nearest level down (project, tenant, bundled),
  // stopping after the first when `first_only`.
  Result<std::vector<RegisteredSchema>> Lookup(std::string_view name, const Scope& scope,
                                               bool first_only) const;
  // Put's checks; the row Put would store.
  Result<StoredSchema> Checked(const Scope& scope, const SchemaRecord& record) const;
  Result<RegisteredSchema> FromRow(const StoredSchema& row, const std::string& origin) const;
  int64_t NowMs() const;

  const std::map<std::string, RegisteredSchema> bundled_;
  const std::unique_ptr<SchemaStore> store_;
  const RegistryOptions options_;
  std::mutex write_mu_;  // serializes Put and Delete
};

}  // namespace structure::registry
