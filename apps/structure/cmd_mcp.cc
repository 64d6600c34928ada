// `structure mcp`: the structure tool as an MCP server over stdio (docs/server.md).
#include <signal.h>

#include <cstdio>

#include "apps/structure/command.h"
#include "apps/structure/engine_flags.h"
#include "apps/structure/server_options.h"
#include "server/mcp/mcp_server.h"

namespace structure::apps {
namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "structure mcp: %s\n", message.c_str());
  return 2;
}

int RunMcp(const std::vector<std::string>& argv) {
  std::vector<FlagSpec> spec = {
      {"tenant", true, "ID: tenant scope of every call (registry overrides)"},
      {"project", true, "ID: project scope of every call (needs --tenant)"},
      {"server-config", true,
       "FILE: TOML file whose [server.tenants.ID] check runs on every call of --tenant ID, as "
       "in serve (default: the [server] table of --config)"},
  };
  AddEngineFlags(spec);
  int exit_code = 0;
  auto args = ParseOrHelp("mcp", argv, spec,
                          "structure mcp [--config FILE] [--tenant ID [--project ID]] [flags]",
                          "Serves the MCP tools 'structure' and 'list_schemas' over stdio "
                          "(JSON-RPC 2.0,\none message per line, protocol revision 2025-06-18). "
                          "Logs go to stderr. Ends at\nEOF on stdin after answering the calls "
                          "under way.",
                          exit_code);
  if (!args) return exit_code;
  if (!args->positional().empty())
    return Fail("unexpected argument '" + args->positional()[0] + "'");
  if (args->has("project") && !args->has("tenant")) return Fail("--project needs --tenant");
  if (Status scope = CheckIdFlags(*args); !scope.ok()) return Fail(scope.message());
  // Keys and limits of the [server] table are for serve; its tenants' checks apply here too.
  server::ServerConfig server_table;
  auto options = server::EngineOptionsWithServerTable(*args, &server_table);
  if (!options.ok()) return Fail(options.status().message());
  signal(SIGPIPE, SIG_IGN);
  auto engine = Engine::Create(std::move(*options));
  if (!engine.ok()) return Fail(engine.status().message());
  mcp::McpOptions mo;
  mo.scope = {args->get("tenant"), args->get("project")};
#ifdef STRUCTURE_VERSION
  mo.server_version = STRUCTURE_VERSION;
#endif
  mcp::McpServer server(**engine, mo, [](const std::string& message) {
    std::fwrite(message.data(), 1, message.size(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
  });
  return mcp::RunStdio(server, stdin);
}

}  // namespace

STRUCTURE_COMMAND("mcp", "serve the structure tool over MCP (stdio, JSON-RPC 2.0)", RunMcp);

}  // namespace structure::apps
