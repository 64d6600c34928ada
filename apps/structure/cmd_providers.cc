// `structure providers`: every provider a call can use, configured or built in, with its kind,
// base URL, model, profile, limits and whether its key variable is set (never the key itself);
// with --models, the model table (providers/models.h) with the config's rows.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "apps/structure/command.h"
#include "apps/structure/engine_flags.h"
#include "config/builtin_providers.h"
#include "config/load_config.h"
#include "providers/endpoint.h"
#include "providers/kinds.h"
#include "providers/models.h"

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

// The key as providers::DescribeKey states it: "set", "not set" or "not needed" (no key for the
// kind, or a local server), the same words `config check` uses. A built-in provider that needs
// --base-url lists no base URL: `run` has none to call.
Json Describe(const config::ProviderConfig& pc, bool builtin) {
  const providers::KindInfo* kind = providers::FindKind(pc.kind);
  bool needs_url = builtin && config::BuiltinNeedsBaseUrl(pc.name);
  std::string base = !pc.base_url.empty() ? pc.base_url
                     : needs_url          ? ""
                     : kind               ? providers::DefaultBaseUrl(kind->kind)
                                          : "";
  if (!base.empty()) base = providers::NormalizeBaseUrl(base);
  providers::KeyStatus key{pc.api_key_env, providers::KeyState::kNotSet};
  if (kind) key = providers::DescribeKey(kind->kind, pc.api_key_env, base);
  std::string key_env = key.variable;
  std::string key_state(providers::KeyStateName(key.state));
  Json j = Json::MakeObject();
  j.set("name", pc.name);
  j.set("kind", pc.kind);
  j.set("source", builtin ? "built in" : "config");
  if (needs_url) {
    j.set("baseUrl", nullptr);
    j.set("needs", "--base-url URL: the server's address");
  } else {
    j.set("baseUrl", base);
  }
  j.set("model", pc.model);
  j.set("profile",
        pc.profile.empty() ? config::DefaultProfileFor(pc.kind, pc.base_url) : pc.profile);
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

void PrintRows(const std::vector<std::vector<std::string>>& rows) {
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

void PrintTable(const Json& list) {
  std::vector<std::vector<std::string>> rows = {{"NAME", "KIND", "SOURCE", "BASE URL", "MODEL",
                                                 "PROFILE", "IN FLIGHT", "RPM", "TPM", "TIMEOUT",
                                                 "KEY"}};
  for (const Json& p : list.as_array()) {
    const Json& l = *p.find("limits");
    std::string key = p.find("keyEnv")->as_string();
    key = key.empty() ? "not needed" : key + " " + p.find("key")->as_string();
    const Json* base = p.find("baseUrl");
    rows.push_back({p.find("name")->as_string(), p.find("kind")->as_string(),
                    p.find("source")->as_string(),
                    base->is_string() ? base->as_string() : "(give --base-url URL)",
                    p.find("model")->as_string(), p.find("profile")->as_string(),
                    std::to_string(l.find("maxConcurrency")->as_int()),
                    Number(l.find("requestsPerMinute")->as_double()),
                    Number(l.find("tokensPerMinute")->as_double()),
                    Number(l.find("timeoutMs")->as_double() / 1000) + " s", key});
  }
  PrintRows(rows);
}

// How a family is asked to think, in one cell: "low|medium|high", "budget 128..32768 (-1)",
// "on/off", or "-" for a model that does not think.
std::string ThinkingCell(const providers::ModelFamily& f) {
  std::string out;
  for (const std::string& e : f.efforts) out += (out.empty() ? "" : "|") + e;
  if (f.on_off) out += std::string(out.empty() ? "" : ", ") + "on/off";
  if (f.budget_max > 0) {
    out += std::string(out.empty() ? "" : ", ") + "budget " + std::to_string(f.budget_min) + ".." +
           std::to_string(f.budget_max) + (f.dynamic_budget ? " (-1)" : "");
  }
  return out.empty() ? "-" : out;
}

// Whether thinking can be turned off: by a level "none" or otherwise ("omit": by leaving the
// parameter out); "-" when it does not think.
std::string OffCell(const providers::ModelFamily& f) {
  if (f.efforts.empty() && f.budget_max == 0 && !f.on_off) return "-";
  bool none = std::find(f.efforts.begin(), f.efforts.end(), "none") != f.efforts.end();
  if (f.thinking_off && f.off_by_omission && !none) return "omit";
  return f.thinking_off || none ? "yes" : "no";
}

void PrintModels(const std::vector<providers::ModelFamily>& families) {
  auto yes = [](bool b) { return std::string(b ? "yes" : "no"); };
  std::vector<std::vector<std::string>> rows = {
      {"KIND", "PREFIX", "THINKING", "OFF", "THINKS", "PARALLEL TOOLS", "TEMPERATURE", "TOP_P",
       "CAP FIELD", "OUTPUT CAP", "REPLAY", "STRUCTURED OUTPUTS", "SOURCE"}};
  for (const providers::ModelFamily& f : families) {
    Json j = providers::FamilyToJson(f);
    rows.push_back(
        {std::string(providers::InfoOf(f.kind).name), f.prefix.empty() ? "(other)" : f.prefix,
         ThinkingCell(f), OffCell(f), yes(f.thinks_by_default), yes(f.parallel_tool_calls),
         yes(f.temperature), yes(f.top_p), f.cap_field.empty() ? "-" : f.cap_field,
         f.output_cap > 0 ? std::to_string(f.output_cap) : "-", j.find("replay")->as_string(),
         yes(f.structured_outputs), f.from_config ? "config" : "built in"});
  }
  PrintRows(rows);
}

// `--models`: the rows of the model table (with the config's), optionally of one kind's list.
int RunModels(const config::EngineConfig& cfg, const Args& args) {
  std::optional<providers::ProviderKind> only;
  if (args.has("kind")) {
    const providers::KindInfo* k = providers::FindKind(args.get("kind"));
    if (k == nullptr) {
      return Fail("--kind: unknown provider kind '" + args.get("kind") +
                  "' (known: " + providers::KindNames() + ")");
    }
    only = k->families;
  }
  auto table = providers::ModelTable::WithOverrides(cfg.model_families);
  if (!table.ok()) return Fail("model_families." + table.status().message());
  std::vector<providers::ModelFamily> rows;
  for (const providers::ModelFamily& f : (*table)->rows()) {
    if (!only || f.kind == *only) rows.push_back(f);
  }
  if (args.has("json")) {
    Json list = Json::MakeArray();
    for (const providers::ModelFamily& f : rows) list.push_back(providers::FamilyToJson(f));
    std::printf("%s\n", ToJson(list, true).c_str());
  } else {
    PrintModels(rows);
  }
  return 0;
}

int RunProviders(const std::vector<std::string>& argv) {
  std::vector<FlagSpec> spec = {
      {"config", true, "FILE: TOML configuration (default: built-in, the simulator)"},
      {"json", false, "print a JSON array instead of a table"},
      {"models", false, "list the model table: what each model family takes"},
      {"kind", true, "KIND: with --models, only the families of this provider kind"},
  };
  int exit_code = 0;
  auto args = ParseOrHelp(
      "providers", argv, spec,
      "structure providers [--config FILE] [--json] [--models [--kind KIND]]",
      "Lists every provider a call can use: those of the configuration (or "
      "the built-in\nsimulator) and the built-in ones `--provider NAME` "
      "gives with no config, with\nkind, base URL, model, profile, limits "
      "and whether the key variable is set. Keys\nare never printed.\n\n"
      "With --models, the model table instead: per provider kind, the model families (by\n"
      "name prefix, the longest wins) and what each takes: thinking levels or budget,\n"
      "whether thinking can be turned off (\"omit\": by leaving it out) and whether the\n"
      "model thinks unasked, parallel_tool_calls, temperature, top_p, the output cap, and\n"
      "whether it has structured outputs (no: the schema goes in the prompt).\n"
      "[model_families.<kind>.\"<prefix>\"] in the config adds or changes rows.",
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
  if (args->has("models")) return RunModels(cfg, *args);
  if (args->has("kind")) return Fail("--kind goes with --models");
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
