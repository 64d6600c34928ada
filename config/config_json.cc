#include "config/config_json.h"

#include "config/settings.h"
#include "config/shared_store.h"
#include "providers/endpoint.h"
#include "providers/kinds.h"

namespace structure::config {

namespace {

Json SettingsJson(const Settings& s) {
  Json j = Json::MakeObject();
  j.set("model", s.model);
  j.set("schemaBuilderModel", s.schema_builder_model);
  j.set("confidenceThreshold", s.confidence_threshold);
  j.set("requireProviderStrictOutput", s.require_provider_strict_output);
  j.set("maxLoops", s.max_loops);
  j.set("tokenBudget", static_cast<int64_t>(s.token_budget));
  j.set("callTimeoutMs", static_cast<int64_t>(s.call_timeout_ms));
  j.set("allowUnresolvedRefs", s.allow_unresolved_refs);
  j.set("evidence", Json(EvidenceModeName(s.evidence)));
  j.set("maxInputTokensPerCall", static_cast<int64_t>(s.max_input_tokens_per_call));
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
  if (s.call_timeout_ms) j.set("callTimeoutMs", static_cast<int64_t>(*s.call_timeout_ms));
  if (s.allow_unresolved_refs) j.set("allowUnresolvedRefs", *s.allow_unresolved_refs);
  if (s.evidence) j.set("evidence", Json(EvidenceModeName(*s.evidence)));
  if (s.max_input_tokens_per_call)
    j.set("maxInputTokensPerCall", static_cast<int64_t>(*s.max_input_tokens_per_call));
  return j;
}

// null without a shared store. The password is never shown, only whether its variable is set.
Json SharedStoreJson(const Stores& s) {
  if (s.shared.empty()) return Json();
  Json j = Json::MakeObject();
  j.set("url", s.shared);
  if (!s.shared_password_env.empty()) {
    j.set("passwordEnv", s.shared_password_env);
    const char* pw = std::getenv(s.shared_password_env.c_str());
    j.set("password", pw != nullptr && *pw ? "set" : "not set");
  }
  j.set("fallbackShare", FallbackShare(s));
  j.set("expectedProcesses", s.shared_expected_processes);
  return j;
}

void AddModelSettings(const ModelSettings& m, Json& out) {
  if (m.reasoning_effort) out.set("reasoningEffort", *m.reasoning_effort);
  if (m.thinking_budget) out.set("thinkingBudget", static_cast<int64_t>(*m.thinking_budget));
  if (m.max_output_tokens) out.set("maxOutputTokens", static_cast<int64_t>(*m.max_output_tokens));
}

// As written; the environment's proxy and CA variables are applied when the engine starts.
Json NetworkJson(const NetworkSettings& n) {
  Json j = Json::MakeObject();
  j.set("proxy", n.proxy ? Json(*n.proxy) : Json());
  j.set("caFile", n.ca_file.empty() ? Json() : Json(n.ca_file));
  j.set("caPath", n.ca_path.empty() ? Json() : Json(n.ca_path));
  j.set("verifyTls", n.verify_tls);
  j.set("connectTimeoutMs", n.connect_timeout_ms);
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
    if (!p.api.empty()) pj.set("api", p.api);
    // The same description `structure providers` gives: the variable read and its state.
    if (const providers::KindInfo* k = providers::FindKind(p.kind)) {
      providers::KeyStatus key = providers::DescribeKey(k->kind, p.api_key_env, p.base_url);
      pj.set("apiKeyEnv", key.variable);
      pj.set("apiKey", std::string(providers::KeyStateName(key.state)));
    }
    Json limits = Json::MakeObject();
    limits.set("maxConcurrency", p.limits.max_concurrency);
    limits.set("requestsPerMinute", p.limits.requests_per_minute);
    limits.set("tokensPerMinute", p.limits.tokens_per_minute);
    limits.set("timeoutMs", p.limits.timeout_ms);
    limits.set("batchWindowUs", p.limits.batch_window_us);
    pj.set("limits", limits);
    Json batch = Json::MakeObject();
    batch.set("discount", p.batch.discount);
    batch.set("maxRequests", p.batch.max_requests);
    batch.set("maxBytes", p.batch.max_bytes);
    batch.set("pollMs", p.batch.poll_ms);
    batch.set("maxPollMs", p.batch.max_poll_ms);
    pj.set("batch", batch);
    pj.set("network", NetworkJson(p.network));
    if (!p.profile_overrides.is_null()) pj.set("profileOverrides", p.profile_overrides);
    if (!p.model_profiles.empty()) {
      Json models = Json::MakeObject();
      for (const auto& [m, o] : p.model_profiles) models.set(m, o);
      pj.set("modelProfiles", models);
    }
    AddModelSettings(p.model_settings, pj);
    if (!p.models.empty()) {
      Json models = Json::MakeObject();
      for (const auto& [m, ms] : p.models) {
        Json mj = Json::MakeObject();
        AddModelSettings(ms, mj);
        models.set(m, std::move(mj));
      }
      pj.set("models", std::move(models));
    }
    providers.set(name, pj);
  }
  j.set("providers", providers);
  if (!c.model_families.empty()) {
    Json families = Json::MakeObject();
    for (const providers::FamilyOverride& o : c.model_families) {
      std::string kind(providers::InfoOf(o.kind).name);
      if (!families.find(kind)) families.set(kind, Json::MakeObject());
      families.find(kind)->set(o.prefix, o.fields);
    }
    j.set("modelFamilies", std::move(families));
  }
  Json aliases = Json::MakeObject();
  for (const auto& [a, t] : c.aliases) {
    aliases.set(a, t.model.empty() ? t.provider : t.provider + "/" + t.model);
  }
  j.set("aliases", aliases);
  Json stores = Json::MakeObject();
  stores.set("registryDir", c.stores.registry_dir);
  stores.set("database", c.stores.database.empty() ? ":memory:" : c.stores.database);
  stores.set("builderCacheTtlDays", c.stores.builder_cache_ttl_days);
  stores.set("shared", SharedStoreJson(c.stores));
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
