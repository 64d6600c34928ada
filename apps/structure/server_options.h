// Engine options for `structure serve` and `structure mcp`: the shared engine flags, and the
// [server] table from --server-config FILE, else from the --config file, else the defaults.
// Header-only because the engine flags live in the executable.
#pragma once

#include <string>

#include "apps/structure/engine_flags.h"
#include "base/read_file.h"
#include "server/server_config.h"

namespace structure::server {

// Errors name the file.
inline Result<EngineOptions> EngineOptionsWithServerTable(const apps::Args& args,
                                                          ServerConfig* server) {
  auto options = apps::EngineOptionsFromArgs(args, server);
  if (!options.ok()) return options.status();
  if (args.has("server-config")) {
    auto text = ReadFile(args.get("server-config"), kMaxConfigBytes, "the config file limit");
    if (!text.ok()) return text.status();
    auto parsed = ParseServerConfig(*text, args.get("server-config"));
    if (!parsed.ok()) return parsed.status();
    *server = std::move(*parsed);
  }
  // A tenant's check command comes from the server's config only (never from a request).
  for (const auto& [tenant, check] : server->checks) {
    options->checks[tenant] = CheckCommand{check.command, check.timeout_ms};
  }
  return options;
}

}  // namespace structure::server
