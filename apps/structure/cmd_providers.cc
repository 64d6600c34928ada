// `structure providers`: every provider a call can use, configured or built in, with its kind,
// base URL, model, profile, limits and whether its key variable is set (never the key itself).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "apps/structure/command.h"
#include "apps/structure/engine_flags.h"
#include "config/builtin_providers.h"
#include "config/load_config.h"
#include "providers/endpoint.h"

namespace structure::apps {
namespace {

int Fail(const std::string& message) {
  std::fprintf(stderr, "structure providers: %s\n", message.c_str());
  return 2;
}

std::string Number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

// "set", "not set" or "not needed" (no key for the kind, or a local server).
Json Describe(const config::ProviderConfig& pc, bool builtin) {
  auto kind = providers::ParseProviderKind(pc.kind);
  std::string base = !pc.base_url.empty() ? pc.base_url
                     : kind.ok()          ? providers::DefaultBaseUrl(*kind)
                                          : "";
  base = providers::NormalizeBaseUrl(base);
  std::string key_env = kind.ok() ? providers::KeyEnvFor(*kind, pc.api_key_env) : pc.api_key_env;
  const char* key = key_env.empty() ? nullptr : std::getenv(key_env.c_str());
  std::string key_state = key != nullptr && *key ? "set" : "not set";
  if (key_env.empty() || (key_state == "not set" && providers::IsLoopbackUrl(base)))
    key_state = "not needed";
  Json j = Json::MakeObject();
  j.set("name", pc.name);
  j.set("kind", pc.kind);
  j.set("source", builtin ? "built in" : "config");
  j.set("baseUrl", base);
  j.set("model", pc.model);
  j.set("profile", pc.profile.empty() ? config::DefaultProfileFor(pc.kind) : pc.profile);
  Json limits = Json::MakeObject();
  limits.set("maxConcurrency", pc.limits.max_concurrency);
  limits.set("requestsPerMinute", pc.limits.requests_per_minute);
  limits.set("tokensPerMinute", pc.limits.tokens_per_minute);
  limits.set("timeoutMs", pc.limits.timeout_ms);
  j.set("limits", limits);
  j.set("keyEnv", key_env);
  j.set("key", key_state);
  return j;
}

void PrintTable(const Json& list) {
  std::vector<std::vector<std::string>> rows = {{"NAME", "KIND", "SOURCE", "BASE URL", "MODEL",
                                                 "PROFILE", "IN FLIGHT", "RPM", "TPM", "TIMEOUT",
                                                 "KEY"}};
  for (const Json& p : list.as_array()) {
    const Json& l = *p.find("limits");
    std::string key = p.find("keyEnv")->as_string();
    key = key.empty() ? "not needed" : key + " " + p.find("key")->as_string();
    rows.push_back({p.find("name")->as_string(), p.find("kind")->as_string(),
                    p.find("source")->as_string(), p.find("baseUrl")->as_string(),
                    p.find("model")->as_string(), p.find("profile")->as_string(),
                    std::to_string(l.find("maxConcurrency")->as_int()),
                    Number(l.find("requestsPerMinute")->as_double()),
                    Number(l.find("tokensPerMinute")->as_double()),
                    Number(l.find("timeoutMs")->as_double() / 1000) + " s", key});
  }
  std::vector<size_t> width(rows[0].size(), 0);
  for (const auto& r : rows) {
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], r[i].size());
  }
  for (const auto& r : rows) {
    std::string line;
    for (size_t i = 0; i < r.size(); ++i) {
      line += r[i];
      if (i + 1 < r.size()) line.append(width[i] - r[i].size() + 2, ' ');
    }
    std::printf("%s\n", line.c_str());
  }
}

int RunProviders(const std::vector<std::string>& argv) {
  std::vector<FlagSpec> spec = {
      {"config", true, "FILE: TOML configuration (default: built-in, the simulator)"},
      {"json", false, "print a JSON array instead of a table"},
  };
  int exit_code = 0;
  auto args = ParseOrHelp("providers", argv, spec, "structure providers [--config FILE] [--json]",
                          "Lists every provider a call can use: those of the configuration (or "
                          "the built-in\nsimulator) and the built-in ones `--provider NAME` "
                          "gives with no config, with\nkind, base URL, model, profile, limits "
                          "and whether the key variable is set. Keys\nare never printed.",
                          exit_code);
  if (!args) return exit_code;
  if (!args->positional().empty())
    return Fail("unexpected argument '" + args->positional()[0] + "'");
  config::EngineConfig cfg = config::DefaultConfig();
  if (args->has("config")) {
    auto loaded = LoadCommandConfig(args->get("config"));
    if (!loaded.ok()) return Fail(loaded.status().message());
    cfg = std::move(*loaded);
  }
  Json list = Json::MakeArray();
  for (const auto& [name, pc] : cfg.providers) list.push_back(Describe(pc, false));
  for (const std::string& name : config::BuiltinProviderNames()) {
    if (!cfg.providers.count(name)) list.push_back(Describe(*config::BuiltinProvider(name), true));
  }
  if (args->has("json")) {
    std::printf("%s\n", ToJson(list, true).c_str());
  } else {
    PrintTable(list);
  }
  return 0;
}

}  // namespace

STRUCTURE_COMMAND("providers", "list the providers a call can use, their limits and key variables",
                  RunProviders);

}  // namespace structure::apps
