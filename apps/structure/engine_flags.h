// Flags shared by every command that calls a provider (run, batch, serve, mcp): --config,
// --provider, --base-url, --database, --registry-dir; and building an Engine from them.
#pragma once

#include <memory>
#include <vector>

#include "actors/engine.h"
#include "apps/structure/args.h"

namespace structure::apps {

// Appends the shared provider/config flags to a command's spec.
void AddEngineFlags(std::vector<FlagSpec>& spec);

// Loads --config (or the built-in defaults) and applies the other shared flags.
Result<EngineOptions> EngineOptionsFromArgs(const Args& args);

}  // namespace structure::apps
