// Flags shared by every command that calls a provider (run, batch, serve, mcp): --config,
// --provider, --base-url, --database, --registry-dir; and building an Engine from them. The one
// loader of a config file for every command, `config check` included, so all give one verdict.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "apps/structure/args.h"
#include "engine/engine_internal.h"
#include "server/server_config.h"

namespace structure::apps {

// Appends the shared provider/config flags to a command's spec.
void AddEngineFlags(std::vector<FlagSpec>& spec);

// --call-timeout-ms N of run and batch (a call's whole time, docs/engine.md "Deadlines"): its
// spec, and its value checked (1..config::kMaxCallTimeoutMs; nullopt when not given).
FlagSpec CallTimeoutFlag();
Result<std::optional<long long>> CallTimeoutFromArgs(const Args& args);

// The ids a command's flags name: --tenant ID and --project ID (run, batch, mcp), each an id by
// base/id.h, and --schema-name NAME (run, batch), a schema name by registry/schema_name.h.
// kInvalidArgument "--tenant: \"../x\" has '/' at position 2 (an id is ...)" otherwise.
Status CheckIdFlags(const Args& args);

// Reads a config file as every command does: the engine's tables (config/load_config.h) and the
// [server] table (server/server_config.h) are both checked. Errors name the file, line and
// key; a directory or unreadable path is an error, never the built-in defaults.
Result<config::EngineConfig> LoadCommandConfig(const std::string& path,
                                               server::ServerConfig* server = nullptr);

// Loads --config (or the built-in defaults), applies the other shared flags and checks the
// result as Engine::Create would (Engine::Check). `server`, when given, receives the file's
// [server] table if it has one. A `--model P` or `--model P/M` naming a built-in provider P that
// is not configured selects it as --provider P does (config::ReadModelRef).
Result<EngineOptions> EngineOptionsFromArgs(const Args& args,
                                            server::ServerConfig* server = nullptr);

}  // namespace structure::apps
