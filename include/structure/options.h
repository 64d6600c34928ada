// EngineOptions: what Engine::Create starts an engine with.
#pragma once

#include <functional>
#include <map>
#include <string>

#include "structure/check.h"
#include "structure/config.h"

namespace structure {

// How the engine's errors name the options of EngineOptions: an embedder that takes them under
// its own names (a flag, a setting) sets these, so the user reads what they typed. The CLI names
// its flags ("--provider openai", "--base-url").
struct OptionNames {
  std::string provider;  // "" = "provider <name>"
  std::string base_url = "base_url";
  std::string registry_dir = "registry_dir";
  std::string database = "database";
};

struct EngineOptions {
  Config config;             // the built-in configuration unless set (structure/config.h)
  std::string provider;      // use this provider for every call ("" = the settings' model); a
                             // built-in kind (openai, anthropic, ...) needs no configuration
  std::string base_url;      // replace the provider's base URL (e.g. a local `structure sim`)
  std::string registry_dir;  // bundled schemas, must exist ("" = the config's, else the
                             // installed ones)
  std::string database;      // SQLite file for schema overrides and caches ("" = the config's;
                             // ":memory:" keeps them in memory)
  // The metrics count a tenant's or project's own schemas under "tenant" / "project", never by
  // name (a server whose metrics every tenant may read sets it).
  bool hide_tenant_schemas = false;
  // Where the engine reports changes of its own state (a shared store lost, back), one line
  // each without a newline. Default: "structure: ..." on stderr. Called from engine threads.
  std::function<void(const std::string&)> log;
  // External checks by the request's tenant; the entry "" applies to requests whose tenant has
  // none. A request never chooses its check: whoever creates the engine does.
  std::map<std::string, CheckCommand> checks;
  OptionNames names;  // how errors name the options above
};

}  // namespace structure
