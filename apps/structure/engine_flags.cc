#include "apps/structure/engine_flags.h"

#include "config/load_config.h"

namespace structure::apps {

void AddEngineFlags(std::vector<FlagSpec>& spec) {
  spec.push_back({"config", true, "FILE: TOML configuration (default: built-in, the simulator)"});
  spec.push_back({"provider", true, "NAME: use this configured provider for every call"});
  spec.push_back({"base-url", true, "URL: replace the provider's base URL (e.g. a local structure sim)"});
  spec.push_back({"database", true, "PATH: SQLite file for schema overrides and the builder cache"});
  spec.push_back({"registry-dir", true, "DIR: bundled schemas directory"});
  spec.push_back({"allow-unresolved-refs", false, "a $ref that cannot be resolved accepts any value instead of bad_schema"});
}

Result<EngineOptions> EngineOptionsFromArgs(const Args& args) {
  EngineOptions o;
  if (args.has("config")) {
    auto cfg = config::LoadConfigFile(args.get("config"));
    if (!cfg.ok()) return cfg.status();
    o.config = std::move(*cfg);
  }
  o.provider = args.get("provider");
  o.base_url = args.get("base-url");
  o.database = args.get("database");
  o.registry_dir = args.get("registry-dir");
  if (args.has("allow-unresolved-refs")) o.config.settings.allow_unresolved_refs = true;
  return o;
}

}  // namespace structure::apps
