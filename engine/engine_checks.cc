#include "engine/engine_checks.h"

#include <sys/stat.h>

#include <filesystem>

#include "base/output_file.h"
#include "config/config_internal.h"
#include "config/database_url.h"
#include "config/load_config.h"
#include "engine/shared_store.h"

namespace structure {
namespace {

namespace fs = std::filesystem;

// "registry/schemas" or, for a relative path, "registry/schemas (from /home/me)".
std::string Where(const std::string& path) {
  std::error_code ec;
  if (fs::path(path).is_absolute()) return "\"" + path + "\"";
  fs::path cwd = fs::current_path(ec);
  return "\"" + path + "\"" +
         (ec ? "" : " (relative to the working directory " + cwd.string() + ")");
}

Status CheckRegistryDir(const EngineOptions& o) {
  bool option = !o.registry_dir.empty();
  const std::string& dir =
      option ? o.registry_dir : ConfigInternal::Of(o.config).stores.registry_dir;
  if (dir.empty()) return Status::Ok();
  std::error_code ec;
  if (fs::is_directory(dir, ec)) return Status::Ok();
  std::string what = fs::exists(dir, ec) ? "is not a directory" : "does not exist";
  return NotFound((option ? o.names.registry_dir : "stores.registry_dir") +
                  ": the bundled schemas directory " + Where(dir) + " " + what +
                  (option ? "" : " (remove the key to use the installed schemas)"));
}

Status CheckDatabase(const EngineOptions& o, const std::string& database) {
  if (database == ":memory:") return Status::Ok();
  std::string from = !o.database.empty() ? o.names.database : "stores.database";
  if (config::IsPostgresUrl(database)) {
    Status url = config::CheckPostgresUrl(database);
    return url.ok() ? url : InvalidArgument(from + ": " + url.message());
  }
  std::error_code ec;
  if (fs::is_directory(database, ec)) {
    return InvalidArgument(from + ": " + Where(database) + " is a directory; name a file");
  }
  // A device or FIFO would be read and written as a database (a FIFO blocks): refused.
  struct stat st {};
  if (::stat(database.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    return InvalidArgument(from + " " + Where(database) + " is " +
                           std::string(FileTypeName(st.st_mode)) +
                           ": the database must be a regular file (or :memory:)");
  }
  fs::path folder = fs::path(database).parent_path();
  if (!folder.empty() && !fs::is_directory(folder, ec)) {
    return NotFound(from + ": the folder of " + Where(database) +
                    " does not exist (create it, or name a file in a folder that does)");
  }
  return Status::Ok();
}

Status CheckCommands(const EngineOptions& o) {
  for (const auto& [tenant, check] : o.checks) {
    if (check.command.empty() || check.timeout_ms > 0) continue;
    return InvalidArgument("check command" + (tenant.empty() ? "" : " of tenant " + tenant) +
                           ": the timeout must be > 0 ms (was " + std::to_string(check.timeout_ms) +
                           ")");
  }
  return Status::Ok();
}

}  // namespace

std::string BundledSchemasDir(const EngineOptions& o) {
  if (!o.registry_dir.empty()) return o.registry_dir;
  if (!ConfigInternal::Of(o.config).stores.registry_dir.empty())
    return ConfigInternal::Of(o.config).stores.registry_dir;
  for (const char* dir : {STRUCTURE_INSTALLED_SCHEMAS, STRUCTURE_SOURCE_SCHEMAS}) {
    std::error_code ec;
    if (fs::is_directory(dir, ec)) return dir;
  }
  return "";
}

Result<CheckedOptions> CheckEngineOptions(const EngineOptions& options) {
  const config::EngineConfig& given = ConfigInternal::Of(options.config);
  STRUCTURE_RETURN_IF_ERROR(config::CheckConfig(given));
  CheckedOptions out;
  bool builtin = !options.provider.empty() && !given.providers.count(options.provider);
  auto effective = actors::WithProviderFlag(given, options);
  if (!effective.ok()) return effective.status();
  out.config = std::move(*effective);
  auto plans = actors::PlanProviders(out.config, options.base_url, options.names.base_url);
  if (!plans.ok()) return plans.status();
  out.plans = std::move(*plans);
  // A provider every call uses must be callable before the first call.
  for (const std::string& name : actors::ProvidersInUse(out.config, options.provider)) {
    for (const actors::ProviderPlan& plan : out.plans) {
      if (plan.handle.config.name != name || plan.handle.unusable.ok()) continue;
      if (!builtin) return plan.handle.unusable;
      const OptionNames& names = options.names;
      return Status(Code::kUnauthenticated,
                    (names.provider.empty() ? "provider " + name : names.provider) + ": " +
                        plan.unusable_reason + " (or give " + names.base_url +
                        " URL for a local server)");
    }
  }
  STRUCTURE_RETURN_IF_ERROR(CheckRegistryDir(options));
  out.bundled_dir = BundledSchemasDir(options);
  out.database = !options.database.empty() ? options.database : given.stores.database;
  if (out.database.empty()) out.database = ":memory:";
  STRUCTURE_RETURN_IF_ERROR(CheckDatabase(options, out.database));
  if (!out.config.stores.shared.empty()) {
    STRUCTURE_RETURN_IF_ERROR(actors::SharedStoreOptions(out.config.stores).status());
  }
  STRUCTURE_RETURN_IF_ERROR(CheckCommands(options));
  return out;
}

}  // namespace structure
