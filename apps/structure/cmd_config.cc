// `structure config check [FILE]`: loads the configuration (or the built-in defaults), checks it
// as run/batch/serve/mcp would (their loader, [server] table and Engine::Check: profiles, base
// URLs, the key variables of the providers every call uses, the schemas directory) and prints
// the effective settings as JSON with secrets masked, and whether the shared store answers.
// Exit 2 on a bad file.
#include <cstdio>

#include "apps/structure/args.h"
#include "apps/structure/command.h"
#include "apps/structure/engine_flags.h"
#include "config/config_json.h"
#include "engine/shared_store.h"

namespace structure::apps {
namespace {

// stores.shared.answers (and .error): whether the shared store answers a PING now. A store that
// does not answer is not a configuration error (the engine falls back), so the exit stays 0.
void AddStoreAnswer(const config::Stores& stores, Json& out) {
  Status ping = actors::PingSharedStore(stores);
  Json st = *out.find("stores");
  Json shared = *st.find("shared");
  shared.set("answers", ping.ok());
  if (!ping.ok()) {
    shared.set("error", ping.message());
    const char* what = ping.code() == Code::kUnavailable ? "does not answer" : "cannot be asked";
    std::fprintf(stderr, "structure config check: the shared store %s: %s\n", what,
                 ping.message().c_str());
  }
  st.set("shared", std::move(shared));
  out.set("stores", std::move(st));
}

int RunConfigCheck(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> spec = {
      {"config", true, "FILE: the config file (same as the positional FILE)"}};
  int exit_code = 0;
  auto parsed = ParseOrHelp("config check", args, spec, "structure config check [FILE]",
                            "Checks a TOML config file (or the built-in defaults when none is "
                            "given) and prints the\neffective configuration as JSON. API keys are "
                            "never printed, only whether their variable is set.",
                            exit_code);
  if (!parsed) return exit_code;
  std::string path = parsed->get("config");
  if (path.empty() && !parsed->positional().empty()) path = parsed->positional()[0];
  if (parsed->positional().size() > 1) {
    std::fprintf(stderr, "structure config check: expected at most one FILE\n");
    return 2;
  }
  // The loader and checks of run/batch/serve/mcp, so the verdict is theirs.
  EngineOptions options;
  Status st;
  if (!path.empty()) {
    auto loaded = LoadCommandConfig(path);
    st = loaded.status();
    if (loaded.ok()) options.config = std::move(*loaded);
  }
  if (st.ok()) st = Engine::Check(options);
  if (!st.ok()) {
    std::fprintf(stderr, "structure config check: %s\n", st.message().c_str());
    return 2;
  }
  Json out = config::ConfigToJson(options.config);
  // The schemas directory a call would use, also when the file names none.
  Json stores = *out.find("stores");
  stores.set("registryDir", Engine::RegistryDir(options));
  out.set("stores", std::move(stores));
  if (!options.config.stores.shared.empty()) AddStoreAnswer(options.config.stores, out);
  std::printf("%s\n", ToJson(out, true).c_str());
  return 0;
}

}  // namespace

STRUCTURE_COMMAND("config check", "check a config file and print the effective settings",
                  RunConfigCheck);

}  // namespace structure::apps
