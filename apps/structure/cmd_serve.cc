// `structure serve`: the HTTP JSON API (docs/server.md) until SIGTERM/SIGINT.
#include <cstdio>

#include "apps/structure/command.h"
#include "apps/structure/server_options.h"
#include "server/console/console_settings.h"
#include "server/serve.h"

namespace structure::apps {
namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "structure serve: %s\n", message.c_str());
  return 2;
}

int RunServe(const std::vector<std::string>& argv) {
  std::vector<FlagSpec> spec = {
      {"listen", true, "HOST:PORT: listen address (default: server.listen, else 127.0.0.1:8080)"},
      {"port", true, "N: port (0 picks a free one; overrides the port of --listen)"},
      {"ui-base", true,
       "PREFIX: the path prefix a proxy puts before the server, e.g. /structure/ (default: "
       "server.ui_base, else /)"},
      {"server-config", true,
       "FILE: TOML file whose [server] table holds keys and limits "
       "(default: the [server] table of --config)"},
  };
  AddEngineFlags(spec);
  int exit_code = 0;
  auto args = ParseOrHelp("serve", argv, spec,
                          "structure serve [--config FILE] [--listen HOST:PORT] [flags]",
                          "Serves the HTTP JSON API: POST /v1/structure, /v1/schemas, /healthz, "
                          "/metrics,\n/v1/openapi.json; OpenAI Chat Completions at POST "
                          "/v1/chat/completions and GET /v1/models\n(an OpenAI SDK's base URL "
                          "http://HOST:PORT/v1); and the web console at /ui. API keys,\n"
                          "tenants and limits come from the [server] table (see "
                          "examples/server.toml). Prints\n\"listening on HOST:PORT\" first; "
                          "SIGTERM or Ctrl-C stops accepting, finishes calls under\nway and "
                          "exits 0.",
                          exit_code);
  if (!args) return exit_code;
  if (!args->positional().empty())
    return Fail("unexpected argument '" + args->positional()[0] + "'");
  server::ServerConfig config;
  auto options = server::EngineOptionsWithServerTable(*args, &config);
  if (!options.ok()) return Fail(options.status().message());
  if (args->has("listen")) {
    Status st = server::ParseListen(args->get("listen"), config);
    if (!st.ok()) return Fail("--listen: " + st.message());
  }
  if (args->has("ui-base")) {
    auto base = server::NormalizeUiBase(args->get("ui-base"));
    if (!base.ok()) return Fail("--ui-base: " + base.status().message());
    config.console.ui_base = *base;
  }
  if (args->has("port")) {
    auto port = args->GetInt("port", 0);
    if (!port.ok()) return Fail(port.status().message());
    if (*port < 0 || *port > 65535)
      return Fail("--port: must be 0..65535 (was " + args->get("port") + ")");
    config.port = static_cast<uint16_t>(*port);
  }
  return server::Serve(std::move(*options), config);
}

}  // namespace

STRUCTURE_COMMAND("serve",
                  "serve the HTTP JSON API and OpenAI Chat Completions (structure calls, schemas)",
                  RunServe);

}  // namespace structure::apps
