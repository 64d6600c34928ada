#include "config/load_config.h"

#include <cstdlib>
#include <set>
#include <sstream>

#include <toml++/toml.h>

#include "config/settings.h"

namespace structure::config {

namespace {

constexpr const char* kKinds[] = {"openai",     "anthropic",         "gemini",
                                  "ollama",     "openai-compatible", "openrouter"};

// Reads one TOML table into config structs, remembering the first problem with its key path.
class Reader {
 public:
  explicit Reader(std::string source) : source_(std::move(source)) {}

  const Status& status() const { return status_; }

  void Fail(const std::string& path, const std::string& what, const toml::node* node = nullptr) {
    if (!status_.ok()) return;
    std::string where = source_;
    if (node != nullptr && node->source().begin.line > 0) {
      where += ":" + std::to_string(node->source().begin.line) + ":" +
               std::to_string(node->source().begin.column);
    }
    status_ = InvalidArgument(where + ": " + path + ": " + what);
  }

  // Every key of `table` must be in `known`.
  void CheckKeys(const toml::table& table, const std::string& path,
                 std::initializer_list<std::string_view> known) {
    for (const auto& [key, node] : table) {
      bool ok = false;
      for (auto k : known) ok = ok || key.str() == k;
      if (!ok) Fail(Join(path, key.str()), "unknown key", &node);
    }
  }

  static std::string Join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }

  const toml::table* Table(const toml::table& t, std::string_view key, const std::string& path) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return nullptr;
    if (!n->is_table()) {
      Fail(Join(path, key), "must be a table", n);
      return nullptr;
    }
    return n->as_table();
  }

  void String(const toml::table& t, std::string_view key, const std::string& path,
              std::string& out) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return;
    if (!n->is_string()) return Fail(Join(path, key), "must be a string", n);
    out = n->as_string()->get();
  }

  void OptString(const toml::table& t, std::string_view key, const std::string& path,
                 std::optional<std::string>& out) {
    if (t.get(key) == nullptr) return;
    std::string v;
    String(t, key, path, v);
    out = v;
  }

  template <class T>
  void Number(const toml::table& t, std::string_view key, const std::string& path, T& out) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return;
    if (n->is_integer()) {
      out = static_cast<T>(n->as_integer()->get());
    } else if (n->is_floating_point() && !std::is_integral_v<T>) {
      out = static_cast<T>(n->as_floating_point()->get());
    } else {
      Fail(Join(path, key), std::is_integral_v<T> ? "must be a whole number" : "must be a number",
           n);
    }
  }

  template <class T>
  void OptNumber(const toml::table& t, std::string_view key, const std::string& path,
                 std::optional<T>& out) {
    if (t.get(key) == nullptr) return;
    T v{};
    Number(t, key, path, v);
    out = v;
  }

  void OptBool(const toml::table& t, std::string_view key, const std::string& path,
               std::optional<bool>& out) {
    const toml::node* n = t.get(key);
    if (n == nullptr) return;
    if (!n->is_boolean()) return Fail(Join(path, key), "must be true or false", n);
    out = n->as_boolean()->get();
  }

  SettingsOverride ReadSettings(const toml::table& t, const std::string& path) {
    CheckKeys(t, path,
              {"model", "schemaBuilderModel", "confidenceThreshold", "requireProviderStrictOutput",
               "maxLoops", "tokenBudget", "allowUnresolvedRefs"});
    SettingsOverride s;
    OptString(t, "model", path, s.model);
    OptString(t, "schemaBuilderModel", path, s.schema_builder_model);
    OptNumber(t, "confidenceThreshold", path, s.confidence_threshold);
    OptBool(t, "requireProviderStrictOutput", path, s.require_provider_strict_output);
    OptNumber(t, "maxLoops", path, s.max_loops);
    OptNumber(t, "tokenBudget", path, s.token_budget);
    OptBool(t, "allowUnresolvedRefs", path, s.allow_unresolved_refs);
    if (status_.ok()) {
      Status st = CheckOverride(s, path);
      if (!st.ok()) Fail(path, st.message().substr(path.size() + 2), &t);
    }
    return s;
  }

  Json ToJsonValue(const toml::node& n) {
    if (n.is_table()) {
      Json o = Json::MakeObject();
      for (const auto& [k, v] : *n.as_table()) o.set(k.str(), ToJsonValue(v));
      return o;
    }
    if (n.is_array()) {
      Json a = Json::MakeArray();
      for (const auto& v : *n.as_array()) a.push_back(ToJsonValue(v));
      return a;
    }
    if (n.is_string()) return Json(n.as_string()->get());
    if (n.is_integer()) return Json(static_cast<int64_t>(n.as_integer()->get()));
    if (n.is_floating_point()) return Json(n.as_floating_point()->get());
    if (n.is_boolean()) return Json(n.as_boolean()->get());
    std::ostringstream ss;  // dates and times as their TOML text
    if (n.is_date()) ss << n.as_date()->get();
    if (n.is_time()) ss << n.as_time()->get();
    if (n.is_date_time()) ss << n.as_date_time()->get();
    return Json(ss.str());
  }

  void ReadLimits(const toml::table& t, const std::string& path, Limits& l) {
    CheckKeys(t, path, {"max_concurrency", "requests_per_minute", "tokens_per_minute", "timeout_ms"});
    Number(t, "max_concurrency", path, l.max_concurrency);
    Number(t, "requests_per_minute", path, l.requests_per_minute);
    Number(t, "tokens_per_minute", path, l.tokens_per_minute);
    Number(t, "timeout_ms", path, l.timeout_ms);
    auto positive = [&](const char* key, double v, bool allow_zero) {
      if (v < 0 || (!allow_zero && v == 0)) {
        std::ostringstream ss;
        ss << "must be " << (allow_zero ? ">= 0" : "> 0") << " (was " << v << ")";
        Fail(Join(path, key), ss.str(), t.get(key));
      }
    };
    positive("max_concurrency", l.max_concurrency, false);
    positive("requests_per_minute", l.requests_per_minute, true);
    positive("tokens_per_minute", l.tokens_per_minute, true);
    positive("timeout_ms", l.timeout_ms, false);
  }

  ProviderConfig ReadProvider(const toml::table& t, const std::string& name) {
    std::string path = "providers." + name;
    CheckKeys(t, path,
              {"kind", "base_url", "api_key_env", "model", "profile", "limits", "profile_overrides",
               "models"});
    ProviderConfig p;
    p.name = name;
    String(t, "kind", path, p.kind);
    String(t, "base_url", path, p.base_url);
    String(t, "api_key_env", path, p.api_key_env);
    String(t, "model", path, p.model);
    String(t, "profile", path, p.profile);
    if (p.kind.empty() && status_.ok()) Fail(path + ".kind", "is required", &t);
    if (!p.kind.empty() && !IsKnownProviderKind(p.kind)) {
      Fail(path + ".kind",
           "unknown provider kind '" + p.kind +
               "' (known: openai, anthropic, gemini, ollama, openai-compatible, openrouter)",
           t.get("kind"));
    }
    if (const toml::table* l = Table(t, "limits", path)) ReadLimits(*l, path + ".limits", p.limits);
    if (const toml::table* o = Table(t, "profile_overrides", path)) p.profile_overrides = ToJsonValue(*o);
    if (const toml::table* models = Table(t, "models", path)) {
      for (const auto& [model, node] : *models) {
        std::string mpath = path + ".models." + std::string(model.str());
        if (!node.is_table()) {
          Fail(mpath, "must be a table", &node);
          continue;
        }
        CheckKeys(*node.as_table(), mpath, {"profile_overrides"});
        if (const toml::table* o = Table(*node.as_table(), "profile_overrides", mpath)) {
          p.model_profiles[std::string(model.str())] = ToJsonValue(*o);
        }
      }
    }
    return p;
  }

  void Read(const toml::table& root, EngineConfig& c) {
    CheckKeys(root, "", {"structure", "providers", "aliases", "stores", "tenants", "server"});
    // [server] belongs to `structure serve`, which reads it from the same file
    // (apps/server/server_config.h); here it only has to be a table.
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
        c.providers[std::string(name.str())] = ReadProvider(*node.as_table(), std::string(name.str()));
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
        ModelAlias a{target.substr(0, slash), slash == std::string::npos ? "" : target.substr(slash + 1)};
        c.aliases[std::string(alias.str())] = a;
      }
    }
    if (const toml::table* s = Table(root, "stores", "")) {
      CheckKeys(*s, "stores", {"registry_dir", "database", "builder_cache_ttl_days"});
      String(*s, "registry_dir", "stores", c.stores.registry_dir);
      String(*s, "database", "stores", c.stores.database);
      Number(*s, "builder_cache_ttl_days", "stores", c.stores.builder_cache_ttl_days);
      if (c.stores.builder_cache_ttl_days < 0) {
        Fail("stores.builder_cache_ttl_days",
             "must be >= 0 (was " + std::to_string(c.stores.builder_cache_ttl_days) + ")",
             s->get("builder_cache_ttl_days"));
      }
    }
    if (const toml::table* tenants = Table(root, "tenants", "")) {
      for (const auto& [id, node] : *tenants) {
        std::string path = "tenants." + std::string(id.str());
        if (!node.is_table()) {
          Fail(path, "must be a table", &node);
          continue;
        }
        const toml::table& t = *node.as_table();
        CheckKeys(t, path, {"settings", "projects"});
        TenantConfig tc;
        if (const toml::table* s = Table(t, "settings", path)) tc.settings = ReadSettings(*s, path + ".settings");
        if (const toml::table* projects = Table(t, "projects", path)) {
          for (const auto& [pid, pnode] : *projects) {
            std::string ppath = path + ".projects." + std::string(pid.str());
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
  std::string source_;
  Status status_;
};

}  // namespace

bool IsKnownProviderKind(std::string_view kind) {
  for (const char* k : kKinds) {
    if (kind == k) return true;
  }
  return false;
}

EngineConfig DefaultConfig() {
  EngineConfig c;
  ProviderConfig sim;
  sim.name = "simulator";
  sim.kind = "openai";
  sim.base_url = "http://127.0.0.1:8089/v1";
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
  Reader reader(source);
  reader.Read(root, c);
  if (!reader.status().ok()) return reader.status();
  Status st = CheckConfig(c);
  if (!st.ok()) return InvalidArgument(source + ": " + st.message());
  return c;
}

Result<EngineConfig> LoadConfigFile(const std::string& path) {
  auto text = ReadFile(path);
  if (!text.ok()) return text.status();
  return ParseConfig(*text, path);
}

Status CheckConfig(const EngineConfig& config) {
  for (const auto& [alias, target] : config.aliases) {
    if (!config.providers.count(target.provider)) {
      return InvalidArgument("aliases." + alias + ": unknown provider '" + target.provider + "'");
    }
  }
  for (const auto& [what, ref] : {std::pair{"structure.model", config.settings.model},
                                  std::pair{"structure.schemaBuilderModel",
                                            config.settings.schema_builder_model}}) {
    auto r = ResolveModel(config, ref);
    if (!r.ok()) return InvalidArgument(std::string(what) + ": " + r.status().message());
  }
  for (const auto& [tid, tenant] : config.tenants) {
    auto check = [&](const SettingsOverride& s, const std::string& where) -> Status {
      for (const auto* ref : {&s.model, &s.schema_builder_model}) {
        if (!*ref) continue;
        auto r = ResolveModel(config, **ref);
        if (!r.ok()) return InvalidArgument(where + ": " + r.status().message());
      }
      return Status::Ok();
    };
    STRUCTURE_RETURN_IF_ERROR(check(tenant.settings, "tenants." + tid + ".settings"));
    for (const auto& [pid, p] : tenant.projects) {
      STRUCTURE_RETURN_IF_ERROR(check(p, "tenants." + tid + ".projects." + pid + ".settings"));
    }
  }
  return Status::Ok();
}

namespace {

Json SettingsJson(const Settings& s) {
  Json j = Json::MakeObject();
  j.set("model", s.model);
  j.set("schemaBuilderModel", s.schema_builder_model);
  j.set("confidenceThreshold", s.confidence_threshold);
  j.set("requireProviderStrictOutput", s.require_provider_strict_output);
  j.set("maxLoops", s.max_loops);
  j.set("tokenBudget", static_cast<int64_t>(s.token_budget));
  j.set("allowUnresolvedRefs", s.allow_unresolved_refs);
  return j;
}

// Only the fields a level sets, so the output shows what each level changes.
Json OverrideJson(const SettingsOverride& s) {
  Json j = Json::MakeObject();
  if (s.model) j.set("model", *s.model);
  if (s.schema_builder_model) j.set("schemaBuilderModel", *s.schema_builder_model);
  if (s.confidence_threshold) j.set("confidenceThreshold", *s.confidence_threshold);
  if (s.require_provider_strict_output) {
    j.set("requireProviderStrictOutput", *s.require_provider_strict_output);
  }
  if (s.max_loops) j.set("maxLoops", *s.max_loops);
  if (s.token_budget) j.set("tokenBudget", static_cast<int64_t>(*s.token_budget));
  if (s.allow_unresolved_refs) j.set("allowUnresolvedRefs", *s.allow_unresolved_refs);
  return j;
}

}  // namespace

Json ConfigToJson(const EngineConfig& c) {
  Json j = Json::MakeObject();
  j.set("source", c.source);
  j.set("structure", SettingsJson(c.settings));
  Json providers = Json::MakeObject();
  for (const auto& [name, p] : c.providers) {
    Json pj = Json::MakeObject();
    pj.set("kind", p.kind);
    pj.set("baseUrl", p.base_url);
    pj.set("model", p.model);
    pj.set("profile", p.profile);
    pj.set("apiKeyEnv", p.api_key_env);
    const char* key = p.api_key_env.empty() ? nullptr : std::getenv(p.api_key_env.c_str());
    pj.set("apiKey", key != nullptr && *key ? "set" : "not set");
    Json limits = Json::MakeObject();
    limits.set("maxConcurrency", p.limits.max_concurrency);
    limits.set("requestsPerMinute", p.limits.requests_per_minute);
    limits.set("tokensPerMinute", p.limits.tokens_per_minute);
    limits.set("timeoutMs", p.limits.timeout_ms);
    pj.set("limits", limits);
    if (!p.profile_overrides.is_null()) pj.set("profileOverrides", p.profile_overrides);
    if (!p.model_profiles.empty()) {
      Json models = Json::MakeObject();
      for (const auto& [m, o] : p.model_profiles) models.set(m, o);
      pj.set("modelProfiles", models);
    }
    providers.set(name, pj);
  }
  j.set("providers", providers);
  Json aliases = Json::MakeObject();
  for (const auto& [a, t] : c.aliases) {
    aliases.set(a, t.model.empty() ? t.provider : t.provider + "/" + t.model);
  }
  j.set("aliases", aliases);
  Json stores = Json::MakeObject();
  stores.set("registryDir", c.stores.registry_dir);
  stores.set("database", c.stores.database);
  stores.set("builderCacheTtlDays", c.stores.builder_cache_ttl_days);
  j.set("stores", stores);
  Json tenants = Json::MakeObject();
  for (const auto& [tid, t] : c.tenants) {
    Json tj = Json::MakeObject();
    tj.set("settings", OverrideJson(t.settings));
    Json projects = Json::MakeObject();
    for (const auto& [pid, p] : t.projects) projects.set(pid, OverrideJson(p));
    tj.set("projects", projects);
    tenants.set(tid, tj);
  }
  j.set("tenants", tenants);
  return j;
}

}  // namespace structure::config
