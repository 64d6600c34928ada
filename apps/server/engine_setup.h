// Engine options for `structure serve` and `structure mcp`: the shared engine flags, with the
// config file's [server] table taken out before the engine's loader sees it (that loader
// rejects unknown tables). Header-only because the engine flags live in the executable.
#pragma once

#include <string>
#include <vector>

#include "apps/server/server_config.h"
#include "apps/structure/engine_flags.h"
#include "config/load_config.h"

namespace structure::server {

// `argv` and `spec` are the command's; `args` is their parse. The server table comes from
// --server-config FILE when given, else from the [server] table of --config FILE, else the
// defaults. Errors name the file.
inline Result<EngineOptions> EngineOptionsWithServerTable(const std::vector<std::string>& argv,
                                                          const std::vector<apps::FlagSpec>& spec,
                                                          const apps::Args& args,
                                                          ServerConfig* server) {
  std::vector<std::string> rest;
  for (size_t i = 0; i < argv.size(); ++i) {
    if (argv[i] == "--config") {
      ++i;
      continue;
    }
    if (argv[i].rfind("--config=", 0) == 0) continue;
    rest.push_back(argv[i]);
  }
  auto without_config = apps::Args::Parse(rest, spec);
  if (!without_config.ok()) return without_config.status();
  auto options = apps::EngineOptionsFromArgs(*without_config);
  if (!options.ok()) return options.status();
  if (args.has("config")) {
    const std::string path = args.get("config");
    auto file = LoadServeConfigFile(path);
    if (!file.ok()) return file.status();
    auto cfg = config::ParseConfig(file->text, path);
    if (!cfg.ok()) return cfg.status();
    options->config = std::move(*cfg);
    if (file->server) *server = std::move(*file->server);
  }
  if (args.has("server-config")) {
    auto text = ReadFile(args.get("server-config"));
    if (!text.ok()) return text.status();
    auto parsed = ParseServerConfig(*text, args.get("server-config"));
    if (!parsed.ok()) return parsed.status();
    *server = std::move(*parsed);
  }
  // A tenant's check command comes from the server's config only (never from a request).
  for (const auto& [tenant, check] : server->checks) {
    options->checks[tenant] = actors::CheckCommand{check.command, check.timeout_ms};
  }
  return options;
}

}  // namespace structure::server
