#include "config/load_config.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "base/id.h"
#include "base/read_file.h"
#include "config/database_url.h"
#include "config/settings.h"
#include "config/shared_store.h"
#include "config/toml_reader.h"
#include "config/unknown_key.h"
#include "providers/kinds.h"
#include "providers/models.h"

namespace structure::config {

namespace {

constexpr int64_t kMaxConcurrency = 1'000'000;  // as `batch --concurrency`
constexpr int64_t kMaxTtlDays = 36'500;

// Reads the engine config's tables (the checked getters: config/toml_reader.h).
class Reader : public TomlReader {
 public:
  using TomlReader::TomlReader;

  SettingsOverride ReadSettings(const toml::table& t, const std::string& path) {
    CheckKeys(t, path,
              {"model", "schemaBuilderModel", "confidenceThreshold", "requireProviderStrictOutput",
               "maxLoops", "tokenBudget", "callTimeoutMs", "allowUnresolvedRefs", "evidence",
               "maxInputTokensPerCall"});
    SettingsOverride s;
    for (auto [key, out] :
         {std::pair{"model", &s.model}, std::pair{"schemaBuilderModel", &s.schema_builder_model}}) {
      OptString(t, key, path, *out);
      if (*out && (*out)->empty()) Fail(Join(path, key), "must not be empty", t.get(key));
      Remember(Join(path, key), t.get(key));
    }
    OptReal(t, "confidenceThreshold", path, 0, 1, s.confidence_threshold, true);
    OptBool(t, "requireProviderStrictOutput", path, s.require_provider_strict_output);
    OptBool(t, "allowUnresolvedRefs", path, s.allow_unresolved_refs);
    OptWhole(t, "maxLoops", path, 1, 10, s.max_loops, true);
    OptWhole(t, "tokenBudget", path, 0, std::numeric_limits<int64_t>::max(), s.token_budget);
    OptWhole(t, "callTimeoutMs", path, 1, kMaxCallTimeoutMs, s.call_timeout_ms, true);
    OptWhole(t, "maxInputTokensPerCall", path, 0, std::numeric_limits<int64_t>::max(),
             s.max_input_tokens_per_call);
    std::optional<std::string> evidence;
    OptString(t, "evidence", path, evidence);
    if (evidence) {
      s.evidence = ParseEvidenceMode(*evidence);
      if (!s.evidence) {
        Fail(Join(path, "evidence"),
             "must be \"off\", \"report\" or \"require\" (was \"" + *evidence + "\")",
             t.get("evidence"));
      }
    }
    return s;
  }

  void ReadLimits(const toml::table& t, const std::string& path, Limits& l) {
    CheckKeys(t, path,
              {"max_concurrency", "requests_per_minute", "tokens_per_minute", "timeout_ms",
               "batch_window_us"});
    Whole(t, "max_concurrency", path, 1, kMaxConcurrency, l.max_concurrency);
    Real(t, "requests_per_minute", path, 0, std::numeric_limits<double>::max(),
         l.requests_per_minute);
    Real(t, "tokens_per_minute", path, 0, std::numeric_limits<double>::max(), l.tokens_per_minute);
    Whole(t, "timeout_ms", path, 1, std::numeric_limits<int>::max(), l.timeout_ms);
    Whole(t, "batch_window_us", path, 0, 100'000, l.batch_window_us);
  }

  void ReadSharedStore(const toml::table& s, Stores& st) {
    String(s, "shared", "stores", st.shared);
    String(s, "shared_password_env", "stores", st.shared_password_env);
    Number(s, "shared_fallback_share", "stores", st.shared_fallback_share);
    Number(s, "shared_expected_processes", "stores", st.shared_expected_processes);
    if (!st.shared.empty()) {
      auto url = ParseSharedStoreUrl(st.shared);
      if (!url.ok()) Fail("stores.shared", url.status().message(), s.get("shared"));
    }
    if (s.get("shared_fallback_share") != nullptr &&
        !(st.shared_fallback_share > 0 && st.shared_fallback_share <= 1)) {
      std::ostringstream ss;
      ss << "must be > 0 and <= 1 (was " << st.shared_fallback_share << ")";
      Fail("stores.shared_fallback_share", ss.str(), s.get("shared_fallback_share"));
    }
    if (st.shared_expected_processes < 1 || st.shared_expected_processes > 100000) {
      Fail("stores.shared_expected_processes",
           "must be 1..100000 (was " + std::to_string(st.shared_expected_processes) + ")",
           s.get("shared_expected_processes"));
    }
  }

  // reasoning_effort, thinking_budget and max_output_tokens of a provider or model table, checked
  // against what the family of `model` takes (providers/models.h): the provider's answer at the
  // first call, given before it.
  void ReadModelSettings(const toml::table& t, const std::string& path, const std::string& kind,
                         const std::string& model, ModelSettings& m) {
    OptString(t, "reasoning_effort", path, m.reasoning_effort);
    OptNumber(t, "thinking_budget", path, m.thinking_budget);
    OptNumber(t, "max_output_tokens", path, m.max_output_tokens);
    if (!status().ok()) return;
    const toml::node* effort_node = t.get("reasoning_effort");
    const toml::node* budget_node = t.get("thinking_budget");
    const auto& levels = providers::ThinkingLevels();
    if (m.reasoning_effort &&
        std::find(levels.begin(), levels.end(), *m.reasoning_effort) == levels.end()) {
      std::string known;
      for (const std::string& l : levels) known += (known.empty() ? "" : ", ") + l;
      return Fail(Join(path, "reasoning_effort"),
                  "unknown effort '" + *m.reasoning_effort + "' (known: " + known + ")",
                  effort_node);
    }
    if (m.thinking_budget && m.reasoning_effort) {
      return Fail(Join(path, "thinking_budget"),
                  "set reasoning_effort or thinking_budget, not both", budget_node);
    }
    const providers::KindInfo* k = providers::FindKind(kind);
    if (k == nullptr) return;  // the kind's own error comes first
    providers::ModelFamily family = models_->Find(k->kind, model.empty() ? "default" : model);
    providers::Thinking thinking;
    thinking.effort = m.reasoning_effort.value_or("");
    if (m.thinking_budget) thinking.budget = *m.thinking_budget;
    auto wire =
        providers::ResolveThinking(family, model.empty() ? "the default model" : model, thinking);
    if (!wire.ok()) {
      bool budget = m.thinking_budget.has_value();
      return Fail(Join(path, budget ? "thinking_budget" : "reasoning_effort"),
                  wire.status().message() + " (the model table: structure providers --models)",
                  budget ? budget_node : effort_node);
    }
    if (!m.max_output_tokens) return;
    const toml::node* n = t.get("max_output_tokens");
    long long budget = m.thinking_budget.value_or(0);
    if (*m.max_output_tokens <= 0 || *m.max_output_tokens > 10'000'000) {
      Fail(Join(path, "max_output_tokens"),
           "must be 1..10000000 (was " + std::to_string(*m.max_output_tokens) + ")", n);
    } else if (*m.max_output_tokens <= budget) {
      Fail(Join(path, "max_output_tokens"),
           "must be greater than thinking_budget (" + std::to_string(budget) +
               "): thinking and the answer share the cap",
           n);
    } else if (family.output_cap > 0 && *m.max_output_tokens > family.output_cap &&
               !model.empty()) {
      Fail(Join(path, "max_output_tokens"),
           "is above the output cap of " + model + " (" + std::to_string(family.output_cap) +
               " tokens, was " + std::to_string(*m.max_output_tokens) + ")",
           n);
    }
  }

  // [model_families.<kind>."<prefix>"]: rows added to or changed in the model table; the table
  // the provider settings are checked against.
  void ReadModelFamilies(const toml::table& t, EngineConfig& c) {
    for (const auto& [kind, node] : t) {
      std::string kpath = "model_families." + std::string(kind.str());
      const providers::KindInfo* k = providers::FindKind(kind.str());
      if (k == nullptr || kind.str() != k->name) {
        return Fail(kpath, "unknown provider kind (known: " + providers::KindNames() + ")", &node);
      }
      if (!node.is_table()) return Fail(kpath, "must be a table", &node);
      for (const auto& [prefix, fields] : *node.as_table()) {
        std::string fpath = kpath + ".\"" + std::string(prefix.str()) + "\"";
        if (!fields.is_table()) return Fail(fpath, "must be a table", &fields);
        c.model_families.push_back({k->kind, std::string(prefix.str()), ToJsonValue(fields)});
        auto table = providers::ModelTable::WithOverrides(c.model_families);
        if (!table.ok()) {
          // "<kind>.\"<prefix>\".<key>: <what>" (the override just added is the one at fault).
          const std::string& msg = table.status().message();
          size_t skip = k->name.size() + prefix.str().size() + 4;
          std::string rest = msg.size() > skip ? msg.substr(skip) : msg;
          size_t colon = rest.find(": ");
          std::string key = rest.substr(0, colon);
          const toml::node* at = fields.as_table()->get(key);
          return Fail(fpath + "." + key, colon == std::string::npos ? rest : rest.substr(colon + 2),
                      at ? at : &fields);
        }
        models_ = std::move(*table);
      }
    }
  }

  void ReadBatch(const toml::table& t, const std::string& path, BatchSettings& b) {
    CheckKeys(t, path, {"discount", "max_requests", "max_bytes", "poll_ms", "max_poll_ms"});
    Number(t, "discount", path, b.discount);
    Number(t, "max_requests", path, b.max_requests);
    Number(t, "max_bytes", path, b.max_bytes);
    Number(t, "poll_ms", path, b.poll_ms);
    Number(t, "max_poll_ms", path, b.max_poll_ms);
    auto check = [&](const char* key, bool good, const std::string& want, double v) {
      if (good) return;
      std::ostringstream ss;
      ss << "must be " << want << " (was " << v << ")";
      Fail(Join(path, key), ss.str(), t.get(key));
    };
    check("discount", b.discount >= 0 && b.discount <= 1, "0..1", b.discount);
    const std::string zero_ok = ">= 0 (0 = the provider's limit)";
    check("max_requests", b.max_requests >= 0, zero_ok, static_cast<double>(b.max_requests));
    check("max_bytes", b.max_bytes >= 0, zero_ok, static_cast<double>(b.max_bytes));
    check("poll_ms", b.poll_ms >= 1, ">= 1", static_cast<double>(b.poll_ms));
    check("max_poll_ms", b.max_poll_ms >= b.poll_ms, ">= poll_ms",
          static_cast<double>(b.max_poll_ms));
  }

  // proxy, ca_file, ca_path, verify_tls, connect_timeout_ms of a provider table. The proxy URL
  // and the CA files are checked when the engine plans its providers
  // (providers/transport/network.h).
  void ReadNetwork(const toml::table& t, const std::string& path, NetworkSettings& n) {
    OptString(t, "proxy", path, n.proxy);
    if (n.proxy && n.proxy->find('@') != std::string::npos) {
      Fail(Join(path, "proxy"),
           "a proxy password does not belong in the config file: leave proxy out and set "
           "HTTPS_PROXY=http://USER:PASSWORD@HOST:PORT in the environment",
           t.get("proxy"));
    }
    String(t, "ca_file", path, n.ca_file);
    String(t, "ca_path", path, n.ca_path);
    for (auto [key, value] : {std::pair{"ca_file", &n.ca_file}, std::pair{"ca_path", &n.ca_path}}) {
      if (t.get(key) != nullptr && value->empty())
        Fail(Join(path, key), "must not be empty (leave it out for the system's CAs)", t.get(key));
    }
    std::optional<bool> verify;
    OptBool(t, "verify_tls", path, verify);
    n.verify_tls = verify.value_or(true);
    Whole(t, "connect_timeout_ms", path, 1, 3'600'000, n.connect_timeout_ms, true);
  }

  // `api`: which of OpenAI's APIs the provider's calls go to (providers/endpoint.h); only kind
  // openai has two.
  void ReadApi(const toml::table& t, const std::string& path, const ProviderConfig& p) {
    if (t.get("api") == nullptr || !status().ok()) return;
    auto api = providers::ParseOpenAiApi(p.api);
    if (!api.ok()) {
      Fail(path + ".api", api.status().message(), t.get("api"));
    } else if (p.kind != "openai") {
      Fail(path + ".api",
           "only kind \"openai\" has a choice of API (chat completions or the Responses API); "
           "leave api out for kind \"" +
               p.kind + "\"",
           t.get("api"));
    }
  }

  ProviderConfig ReadProvider(const toml::table& t, const std::string& name) {
    std::string path = "providers." + name;
    CheckKeys(
        t, path,
        {"kind", "base_url", "api_key_env", "model", "profile", "api", "limits",
         "profile_overrides", "models", "reasoning_effort", "thinking_budget", "max_output_tokens",
         "batch", "proxy", "ca_file", "ca_path", "verify_tls", "connect_timeout_ms"});
    ProviderConfig p;
    p.name = name;
    String(t, "kind", path, p.kind);
    String(t, "base_url", path, p.base_url);
    String(t, "api_key_env", path, p.api_key_env);
    String(t, "model", path, p.model);
    String(t, "profile", path, p.profile);
    String(t, "api", path, p.api);
    if (p.kind.empty() && status().ok()) Fail(path + ".kind", "is required", &t);
    if (!p.kind.empty() && !IsKnownProviderKind(p.kind)) {
      std::string known;
      for (std::string_view k : ProviderKinds())
        known += (known.empty() ? "" : ", ") + std::string(k);
      Fail(path + ".kind", "unknown provider kind '" + p.kind + "' (known: " + known + ")",
           t.get("kind"));
    }
    ReadApi(t, path, p);
    if (const toml::table* l = Table(t, "limits", path)) ReadLimits(*l, path + ".limits", p.limits);
    if (const toml::table* b = Table(t, "batch", path)) ReadBatch(*b, path + ".batch", p.batch);
    ReadNetwork(t, path, p.network);
    if (const toml::table* o = Table(t, "profile_overrides", path))
      p.profile_overrides = ToJsonValue(*o);
    ReadModelSettings(t, path, p.kind, p.model, p.model_settings);
    if (const toml::table* models = Table(t, "models", path)) {
      for (const auto& [model, node] : *models) {
        std::string mpath = path + ".models." + std::string(model.str());
        if (!node.is_table()) {
          Fail(mpath, "must be a table", &node);
          continue;
        }
        const toml::table& mt = *node.as_table();
        CheckKeys(
            mt, mpath,
            {"profile_overrides", "reasoning_effort", "thinking_budget", "max_output_tokens"});
        if (const toml::table* o = Table(mt, "profile_overrides", mpath)) {
          p.model_profiles[std::string(model.str())] = ToJsonValue(*o);
        }
        ModelSettings own;
        ReadModelSettings(mt, mpath, p.kind, std::string(model.str()), own);
        if (own.reasoning_effort || own.thinking_budget || own.max_output_tokens) {
          p.models[std::string(model.str())] = own;
        }
      }
    }
    return p;
  }

  void Read(const toml::table& root, EngineConfig& c) {
    CheckKeys(
        root, "",
        {"structure", "model_families", "providers", "aliases", "stores", "tenants", "server"});
    // The model table first: provider settings are checked against it.
    if (const toml::table* f = Table(root, "model_families", "")) ReadModelFamilies(*f, c);
    // [server] belongs to `structure serve`, which reads it from the same file
    // (server/server_config.h); here it only has to be a table.
    Table(root, "server", "");
    if (const toml::table* s = Table(root, "structure", "")) {
      c.settings = ApplyOverride(c.settings, ReadSettings(*s, "structure"));
    }
    if (const toml::table* providers = Table(root, "providers", "")) {
      c.providers.clear();  // a file that names providers replaces the built-in simulator
      for (const auto& [name, node] : *providers) {
        if (!node.is_table()) {
          Fail("providers." + std::string(name.str()), "must be a table", &node);
          continue;
        }
        c.providers[std::string(name.str())] =
            ReadProvider(*node.as_table(), std::string(name.str()));
      }
      if (!providers->empty() && c.aliases.size() == 2 && c.aliases.count("default:fast") &&
          c.aliases["default:fast"].provider == "simulator") {
        c.aliases.clear();  // the built-in aliases point at the simulator that was just replaced
      }
    }
    if (const toml::table* aliases = Table(root, "aliases", "")) {
      for (const auto& [alias, node] : *aliases) {
        std::string path = "aliases." + std::string(alias.str());
        if (!node.is_string()) {
          Fail(path, "must be a string \"provider/model\" or \"provider\"", &node);
          continue;
        }
        std::string target = node.as_string()->get();
        auto slash = target.find('/');
        ModelAlias a{target.substr(0, slash),
                     slash == std::string::npos ? "" : target.substr(slash + 1)};
        c.aliases[std::string(alias.str())] = a;
        Remember(path, &node);
      }
    }
    // A file with one provider and no [aliases] means that provider for the built-in aliases.
    if (c.providers.size() == 1) {
      for (const char* builtin : {"default:fast", "default:analyze"}) {
        c.aliases.emplace(builtin, ModelAlias{c.providers.begin()->first, ""});
      }
    }
    if (const toml::table* s = Table(root, "stores", "")) {
      CheckKeys(*s, "stores",
                {"registry_dir", "database", "builder_cache_ttl_days", "shared",
                 "shared_password_env", "shared_fallback_share", "shared_expected_processes"});
      String(*s, "registry_dir", "stores", c.stores.registry_dir);
      String(*s, "database", "stores", c.stores.database);
      if (IsPostgresUrl(c.stores.database)) {
        Status url = CheckPostgresUrl(c.stores.database);
        if (!url.ok()) Fail("stores.database", url.message(), s->get("database"));
      }
      Whole(*s, "builder_cache_ttl_days", "stores", 0, kMaxTtlDays,
            c.stores.builder_cache_ttl_days);
      ReadSharedStore(*s, c.stores);
    }
    if (const toml::table* tenants = Table(root, "tenants", "")) {
      for (const auto& [id, node] : *tenants) {
        std::string path = "tenants." + std::string(id.str());
        if (std::string problem = IdProblem(id.str()); !problem.empty()) {
          Fail(path, "the tenant id " + problem, &node);
          continue;
        }
        if (!node.is_table()) {
          Fail(path, "must be a table", &node);
          continue;
        }
        const toml::table& t = *node.as_table();
        CheckKeys(t, path, {"settings", "projects"});
        TenantConfig tc;
        if (const toml::table* s = Table(t, "settings", path))
          tc.settings = ReadSettings(*s, path + ".settings");
        if (const toml::table* projects = Table(t, "projects", path)) {
          for (const auto& [pid, pnode] : *projects) {
            std::string ppath = path + ".projects." + std::string(pid.str());
            if (std::string problem = IdProblem(pid.str()); !problem.empty()) {
              Fail(ppath, "the project id " + problem, &pnode);
              continue;
            }
            if (!pnode.is_table()) {
              Fail(ppath, "must be a table", &pnode);
              continue;
            }
            CheckKeys(*pnode.as_table(), ppath, {"settings"});
            if (const toml::table* s = Table(*pnode.as_table(), "settings", ppath)) {
              tc.projects[std::string(pid.str())] = ReadSettings(*s, ppath + ".settings");
            } else {
              tc.projects[std::string(pid.str())] = {};
            }
          }
        }
        c.tenants[std::string(id.str())] = tc;
      }
    }
  }

 private:
  std::shared_ptr<const providers::ModelTable> models_ = providers::ModelTable::Builtin();
};

}  // namespace

const std::vector<std::string_view>& ProviderKinds() {
  static const std::vector<std::string_view> kKinds = [] {
    std::vector<std::string_view> v;
    for (const providers::KindInfo& k : providers::Kinds()) v.push_back(k.name);
    return v;
  }();
  return kKinds;
}

bool IsKnownProviderKind(std::string_view kind) {
  for (std::string_view k : ProviderKinds()) {
    if (kind == k) return true;
  }
  return false;
}

EngineConfig DefaultConfig() {
  EngineConfig c;
  ProviderConfig sim;
  sim.name = kSimulatorProvider;
  sim.kind = "openai";
  sim.base_url = kSimulatorBaseUrl;
  sim.model = "sim-1";
  sim.profile = "openai-strict";
  c.providers[sim.name] = sim;
  c.aliases["default:fast"] = ModelAlias{"simulator", ""};
  c.aliases["default:analyze"] = ModelAlias{"simulator", ""};
  return c;
}

Result<EngineConfig> ParseConfig(std::string_view toml_text, const std::string& source) {
  EngineConfig c = DefaultConfig();
  c.source = source;
  toml::table root;
  try {
    root = toml::parse(toml_text, source);
  } catch (const toml::parse_error& e) {
    const auto& b = e.source().begin;
    return InvalidArgument(source + ":" + std::to_string(b.line) + ":" + std::to_string(b.column) +
                           ": " + std::string(e.description()));
  }
  Reader reader(source, toml_text);
  reader.Read(root, c);
  if (!reader.status().ok()) return reader.status();
  Status st = CheckConfig(c);
  if (!st.ok()) return InvalidArgument(reader.Locate(st.message()));
  return c;
}

Result<EngineConfig> LoadConfigFile(const std::string& path) {
  auto text = ReadFile(path, kMaxConfigBytes, "the config file limit");
  if (!text.ok()) return text.status();
  return ParseConfig(*text, path);
}

namespace {

// Why `ref` does not resolve, in the user's terms: a built-in alias nobody defined asks for
// [aliases] rather than calling the user's (unwritten) default unknown.
std::string WhyUnresolved(const EngineConfig& config, const std::string& ref,
                          const Status& status) {
  if ((ref == "default:fast" || ref == "default:analyze") && !config.aliases.count(ref)) {
    std::string names;
    for (const auto& [name, p] : config.providers) names += (names.empty() ? "" : ", ") + name;
    return "is \"" + ref + "\", and with several providers (" + names +
           ") no [aliases] entry says which one that is: add [aliases] \"" + ref +
           "\" = \"PROVIDER/MODEL\", or set it to \"PROVIDER/MODEL\"";
  }
  return status.message();
}

}  // namespace

Status CheckConfig(const EngineConfig& config) {
  for (const auto& [alias, target] : config.aliases) {
    if (!config.providers.count(target.provider)) {
      return InvalidArgument("aliases." + alias + ": unknown provider '" + target.provider + "'");
    }
  }
  auto check = [&](const std::optional<std::string>& ref, const std::string& path) -> Status {
    if (!ref) return Status::Ok();
    auto r = ResolveModel(config, *ref);
    if (!r.ok()) return InvalidArgument(path + ": " + WhyUnresolved(config, *ref, r.status()));
    return Status::Ok();
  };
  STRUCTURE_RETURN_IF_ERROR(check(config.settings.model, "structure.model"));
  STRUCTURE_RETURN_IF_ERROR(
      check(config.settings.schema_builder_model, "structure.schemaBuilderModel"));
  for (const auto& [tid, tenant] : config.tenants) {
    auto check_level = [&](const SettingsOverride& s, const std::string& where) -> Status {
      STRUCTURE_RETURN_IF_ERROR(check(s.model, where + ".model"));
      return check(s.schema_builder_model, where + ".schemaBuilderModel");
    };
    STRUCTURE_RETURN_IF_ERROR(check_level(tenant.settings, "tenants." + tid + ".settings"));
    for (const auto& [pid, p] : tenant.projects) {
      STRUCTURE_RETURN_IF_ERROR(
          check_level(p, "tenants." + tid + ".projects." + pid + ".settings"));
    }
  }
  return Status::Ok();
}

}  // namespace structure::config
