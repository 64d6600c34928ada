#include "registry/schema_registry.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "base/time_format.h"
#include "config/database_url.h"
#include "registry/bundled_schemas.h"
#include "registry/fallback_schema_store.h"
#include "registry/schema_compat.h"
#include "registry/schema_name.h"
#include "registry/schema_version.h"

namespace structure::registry {
namespace {

Status ValidateScope(const Scope& scope) {
  if (scope.tenant.empty()) {
    if (!scope.project.empty()) {
      return InvalidArgument("project \"" + scope.project +
                             "\" given without a tenant; a project belongs to a tenant");
    }
    return Status::Ok();
  }
  STRUCTURE_RETURN_IF_ERROR(ValidateScopeId(scope.tenant, "tenant"));
  if (!scope.project.empty()) STRUCTURE_RETURN_IF_ERROR(ValidateScopeId(scope.project, "project"));
  return Status::Ok();
}

// The levels of a scope from nearest to farthest, bundled excluded.
struct Level {
  StoreKey key;
  std::string origin;
};
std::vector<Level> StoreLevels(const Scope& scope) {
  std::vector<Level> levels;
  if (scope.tenant.empty()) return levels;
  if (!scope.project.empty()) {
    levels.push_back({{scope.tenant, scope.project}, ProjectOrigin(scope.project)});
  }
  levels.push_back({{scope.tenant, ""}, TenantOrigin(scope.tenant)});
  return levels;
}

std::string Describe(const Scope& scope) {
  if (scope.tenant.empty()) return "bundled schemas";
  if (scope.project.empty()) return "tenant \"" + scope.tenant + "\"";
  return "project \"" + scope.project + "\" of tenant \"" + scope.tenant + "\"";
}

std::string SearchedLevels(const Scope& scope) {
  if (scope.tenant.empty()) return "bundled";
  std::string out;
  if (!scope.project.empty()) out += "project \"" + scope.project + "\", ";
  return out + "tenant \"" + scope.tenant + "\", bundled";
}

// One version of a schema, for the compatibility rule.
struct Side {
  const Json& schema;
  SchemaVersion version;
  std::string where;  // "" for the schema being put, else the level it is stored at
};

// Within one MAJOR, the higher version must be a compatible minor step from the lower one: it
// keeps every answer the lower version promised its callers (registry/schema_compat.h).
Status CheckCompatible(const std::string& name, const Side& lower, const Side& higher) {
  std::vector<std::string> breaking = BreakingChanges(lower.schema, higher.schema);
  if (breaking.empty()) return Status::Ok();
  constexpr size_t kShown = 10;
  std::string what;
  for (size_t i = 0; i < breaking.size() && i < kShown; ++i) {
    what += (i == 0 ? "" : "; ") + breaking[i];
  }
  if (breaking.size() > kShown) {
    what += "; and " + std::to_string(breaking.size() - kShown) + " more";
  }
  auto at = [](const Side& s) { return s.where.empty() ? std::string() : " at " + s.where; };
  return InvalidArgument("schema \"" + name + "\" version " + higher.version.ToString() +
                         at(higher) + " is not compatible with version " +
                         lower.version.ToString() + at(lower) + ": " + what +
                         ". A minor version may only add optional properties and relax "
                         "constraints; a breaking change needs a new name, e.g. " +
                         name + "-v" + std::to_string(lower.version.major + 1));
}

}  // namespace

SchemaRegistry::SchemaRegistry(std::map<std::string, RegisteredSchema> bundled,
                               std::unique_ptr<SchemaStore> store, RegistryOptions options)
    : bundled_(std::move(bundled)), store_(std::move(store)), options_(std::move(options)) {}

Result<std::unique_ptr<SchemaRegistry>> SchemaRegistry::Open(const std::string& bundled_dir,
                                                             const std::string& database,
                                                             RegistryOptions options) {
  std::map<std::string, RegisteredSchema> bundled;
  if (!bundled_dir.empty()) {
    auto loaded = LoadBundledSchemas(bundled_dir, options.limits, options.max_manual_bytes);
    if (!loaded.ok()) return loaded.status();
    bundled = std::move(loaded).value();
  }
  auto store = SchemaStore::Open(database);
  if (!store.ok()) return store.status();
  std::unique_ptr<SchemaStore> opened = std::move(store).value();
  if (config::IsPostgresUrl(database)) {
    opened = std::make_unique<FallbackSchemaStore>(std::move(opened), options.outage_reads);
  }
  return std::unique_ptr<SchemaRegistry>(
      new SchemaRegistry(std::move(bundled), std::move(opened), std::move(options)));
}

int64_t SchemaRegistry::NowMs() const {
  if (options_.now_ms) return options_.now_ms();
  return UnixNowMs();
}

Result<RegisteredSchema> SchemaRegistry::FromRow(const StoredSchema& row,
                                                 const std::string& origin) const {
  // Rows were checked on Put, but the file is outside our control; the bounds still apply.
  DocumentLimits limits = options_.limits;
  limits.max_schema_bytes = std::max(limits.max_schema_bytes, row.schema.size());
  auto doc = ParseSchemaDocument(row.schema, origin + " schema \"" + row.name + "\"", limits);
  if (!doc.ok()) return Internal("stored schema is corrupt: " + doc.status().message());
  RegisteredSchema entry;
  entry.name = row.name;
  entry.schema = std::move(doc->schema);
  entry.manual = row.manual;
  entry.version = row.version;
  entry.origin = origin;
  entry.updated_at_ms = row.updated_at_ms;
  return entry;
}

Result<std::vector<RegisteredSchema>> SchemaRegistry::Lookup(std::string_view name,
                                                             const Scope& scope,
                                                             bool first_only) const {
  std::vector<RegisteredSchema> found;
  for (const Level& level : StoreLevels(scope)) {
    auto row = store_->Get(level.key, name);
    if (!row.ok()) return row.status();
    if (!row->has_value()) continue;
    auto entry = FromRow(**row, level.origin);
    if (!entry.ok()) return entry.status();
    found.push_back(std::move(entry).value());
    if (first_only) return found;
  }
  auto it = bundled_.find(std::string(name));
  if (it != bundled_.end()) found.push_back(it->second);
  return found;
}

Result<RegisteredSchema> SchemaRegistry::Find(std::string_view name, const Scope& scope) const {
  STRUCTURE_RETURN_IF_ERROR(ValidateSchemaName(name));
  STRUCTURE_RETURN_IF_ERROR(ValidateScope(scope));
  auto found = Lookup(name, scope, /*first_only=*/true);
  if (!found.ok()) return found.status();
  if (found->empty()) {
    return NotFound("unknown schema name \"" + std::string(name) + "\" (searched " +
                    SearchedLevels(scope) + ")");
  }
  return std::move(found->front());
}

Result<RegisteredSchema> SchemaRegistry::Get(const Scope& scope, std::string_view name) const {
  STRUCTURE_RETURN_IF_ERROR(ValidateSchemaName(name));
  STRUCTURE_RETURN_IF_ERROR(ValidateScope(scope));
  std::vector<Level> levels = StoreLevels(scope);
  if (levels.empty()) {
    auto it = bundled_.find(std::string(name));
    if (it != bundled_.end()) return it->second;
  } else {
    auto row = store_->Get(levels.front().key, name);
    if (!row.ok()) return row.status();
    if (row->has_value()) return FromRow(**row, levels.front().origin);
  }
  return NotFound("no schema \"" + std::string(name) + "\" stored at " + Describe(scope));
}

Result<std::vector<RegisteredSchema>> SchemaRegistry::List(const Scope& scope) const {
  STRUCTURE_RETURN_IF_ERROR(ValidateScope(scope));
  // name -> entries nearest first; levels are visited nearest first.
  std::map<std::string, std::vector<RegisteredSchema>> by_name;
  for (const Level& level : StoreLevels(scope)) {
    auto rows = store_->List(level.key);
    if (!rows.ok()) return rows.status();
    for (const StoredSchema& row : *rows) {
      auto entry = FromRow(row, level.origin);
      if (!entry.ok()) return entry.status();
      by_name[row.name].push_back(std::move(entry).value());
    }
  }
  for (const auto& [name, entry] : bundled_) by_name[name].push_back(entry);

  std::vector<RegisteredSchema> out;
  out.reserve(by_name.size());
  for (auto& [name, entries] : by_name) {
    RegisteredSchema effective = std::move(entries.front());
    for (size_t i = 1; i < entries.size(); ++i) effective.shadows.push_back(entries[i].origin);
    out.push_back(std::move(effective));
  }
  return out;
}

Result<StoredSchema> SchemaRegistry::Checked(const Scope& scope, const SchemaRecord& record) const {
  STRUCTURE_RETURN_IF_ERROR(ValidateScope(scope));
  if (scope.tenant.empty()) {
    return InvalidArgument("bundled schemas are read-only; put \"" + record.name +
                           "\" at a tenant or project scope");
  }
  STRUCTURE_RETURN_IF_ERROR(ValidateSchemaName(record.name));
  if (record.manual.size() > options_.max_manual_bytes) {
    return InvalidArgument("manual of \"" + record.name + "\" is " +
                           std::to_string(record.manual.size()) + " bytes, the limit is " +
                           std::to_string(options_.max_manual_bytes));
  }
  auto doc = ParseSchemaDocument(record.schema, "schema \"" + record.name + "\"", options_.limits);
  if (!doc.ok()) return doc.status();

  std::string version_text = record.version.empty() ? doc->version : record.version;
  if (version_text.empty()) {
    return InvalidArgument("schema \"" + record.name +
                           "\" has no version: give one as \"MAJOR.MINOR\" (e.g. \"1.0\") or as "
                           "\"x-version\" in the schema");
  }
  auto version = ParseSchemaVersion(version_text);
  if (!version.ok()) {
    return InvalidArgument("schema \"" + record.name + "\": " + version.status().message());
  }
  if (!doc->version.empty() && !record.version.empty() && doc->version != version->ToString()) {
    return InvalidArgument("schema \"" + record.name + "\": version \"" + record.version +
                           "\" disagrees with the schema's \"x-version\" \"" + doc->version + "\"");
  }
  if (options_.check_schema) STRUCTURE_RETURN_IF_ERROR(options_.check_schema(doc->schema));

  // The revision at the own level is read before the levels are checked: when it changed by
  // the time of the write (another process put meanwhile), Put checks again.
  const Level own = StoreLevels(scope).front();
  auto own_row = store_->Get(own.key, record.name);
  if (!own_row.ok()) return own_row.status();
  int64_t revision = own_row->has_value() ? (*own_row)->revision : 0;
  auto existing = Lookup(record.name, scope, /*first_only=*/false);
  if (!existing.ok()) return existing.status();
  const std::string& own_origin = own.origin;
  for (const RegisteredSchema& other : *existing) {
    auto from = ParseSchemaVersion(other.version);
    if (!from.ok()) continue;  // a row written by something else; nothing to compare with
    Side stored{other.schema, *from, other.origin};
    Side put{doc->schema, *version, ""};
    if (other.origin == own_origin) {
      STRUCTURE_RETURN_IF_ERROR(CheckVersionChange(record.name, *from, *version));
      STRUCTURE_RETURN_IF_ERROR(CheckCompatible(record.name, stored, put));
    } else if (from->major == version->major) {
      // The override stands in for the other level's schema for its callers: whichever of the
      // two is the higher version must be a minor step from the other.
      STRUCTURE_RETURN_IF_ERROR(*from <= *version ? CheckCompatible(record.name, stored, put)
                                                  : CheckCompatible(record.name, put, stored));
    } else {
      // The override would hand callers of this name an incompatible schema.
      return InvalidArgument(
          "schema \"" + record.name + "\" is version " + from->ToString() + " at " + other.origin +
          "; an override with version " + version->ToString() +
          " changes MAJOR: a breaking change needs a new name, e.g. " + record.name + "-v" +
          std::to_string(std::max(version->major, from->major + 1)));
    }
  }

  StoredSchema row;
  row.name = record.name;
  row.version = version->ToString();
  row.schema = record.schema;
  row.manual = record.manual;
  row.updated_at_ms = NowMs();
  row.revision = revision;
  return row;
}

Status SchemaRegistry::CheckPut(const Scope& scope, const SchemaRecord& record) const {
  return Checked(scope, record).status();
}

Status SchemaRegistry::Put(const Scope& scope, const SchemaRecord& record) {
  std::lock_guard<std::mutex> lock(write_mu_);
  // Another process sharing the store may write the name between the check and the write: the
  // store then refuses the write (the revision moved) and the checks run again on what it wrote.
  constexpr int kAttempts = 8;
  for (int attempt = 1;; ++attempt) {
    auto row = Checked(scope, record);
    if (!row.ok()) return row.status();
    Status s = store_->Put(StoreLevels(scope).front().key, *row, row->revision);
    if (s.code() != Code::kFailedPrecondition) return s;
    if (attempt == kAttempts) {
      return Unavailable("schema \"" + record.name + "\" at " + Describe(scope) + " changed " +
                         std::to_string(kAttempts) +
                         " times while this put was checked against it; try again");
    }
  }
}

Result<std::vector<RegisteredSchema>> SchemaRegistry::History(const Scope& scope,
                                                              std::string_view name) const {
  STRUCTURE_RETURN_IF_ERROR(ValidateSchemaName(name));
  STRUCTURE_RETURN_IF_ERROR(ValidateScope(scope));
  std::vector<RegisteredSchema> out;
  std::vector<Level> levels = StoreLevels(scope);
  if (levels.empty()) {
    if (auto it = bundled_.find(std::string(name)); it != bundled_.end()) out.push_back(it->second);
    return out;
  }
  auto rows = store_->History(levels.front().key, name);
  if (!rows.ok()) return rows.status();
  for (const StoredSchema& row : *rows) {
    auto entry = FromRow(row, levels.front().origin);
    if (!entry.ok()) return entry.status();
    out.push_back(std::move(entry).value());
  }
  return out;
}

Status SchemaRegistry::Delete(const Scope& scope, std::string_view name) {
  STRUCTURE_RETURN_IF_ERROR(ValidateScope(scope));
  if (scope.tenant.empty()) {
    return InvalidArgument("bundled schemas are read-only; \"" + std::string(name) +
                           "\" cannot be deleted");
  }
  STRUCTURE_RETURN_IF_ERROR(ValidateSchemaName(name));
  std::lock_guard<std::mutex> lock(write_mu_);
  Status s = store_->Delete(StoreLevels(scope).front().key, name);
  if (s.code() == Code::kNotFound) {
    return NotFound("no schema \"" + std::string(name) + "\" stored at " + Describe(scope));
  }
  return s;
}

}  // namespace structure::registry
