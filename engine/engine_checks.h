// Every check Engine::Create makes before it starts anything, in one function that `structure
// config check` runs too (Engine::Check), so a configuration it passes is one run/batch/serve/mcp
// accept: the configuration's own checks, the --provider and --base-url flags, every provider's
// plan, the API key of each provider every call uses, the bundled schemas directory
// (--registry-dir or stores.registry_dir must exist), the database's folder, the shared store's
// settings and the check commands' timeouts. Nothing is started, opened or written.
#pragma once

#include <string>
#include <vector>

#include "base/status.h"
#include "engine/engine.h"
#include "engine/provider_setup.h"

namespace structure {

struct CheckedOptions {
  config::EngineConfig config;  // with the built-in provider --provider names added
  std::vector<actors::ProviderPlan> plans;
  std::string bundled_dir;  // "" when none is configured and none is installed
  std::string database;     // ":memory:" unless a file is named
};

// kInvalidArgument / kNotFound / kUnauthenticated naming the flag, key or variable.
Result<CheckedOptions> CheckEngineOptions(const EngineOptions& options);

// The bundled schemas directory the options give: --registry-dir, else stores.registry_dir,
// else the installed (or source tree's) schemas; "" when there is none. Not checked.
std::string BundledSchemasDir(const EngineOptions& options);

}  // namespace structure
