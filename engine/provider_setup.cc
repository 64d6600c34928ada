#include "engine/provider_setup.h"

#include <cstdlib>

#include "config/builtin_providers.h"
#include "config/load_config.h"
#include "config/settings.h"
#include "providers/endpoint.h"
#include "providers/kinds.h"
#include "providers/models.h"

namespace structure::actors {
namespace {

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The provider's proxy, CAs and TLS checks from its table and the environment.
Status PlanNetwork(const config::ProviderConfig& pc, const std::string& base_url,
                   ProviderPlan& plan) {
  providers::NetworkConfig n;
  n.proxy = pc.network.proxy;
  n.ca_file = pc.network.ca_file;
  n.ca_path = pc.network.ca_path;
  n.verify_tls = pc.network.verify_tls;
  n.connect_timeout_ms = pc.network.connect_timeout_ms;
  auto network = providers::ResolveNetwork(n, base_url, nullptr, &plan.warning);
  if (!network.ok())
    return InvalidArgument("providers." + pc.name + ": " + network.status().message());
  plan.handle.network = std::move(*network);
  if (!plan.warning.empty()) plan.warning = "providers." + pc.name + ": " + plan.warning;
  return Status::Ok();
}

Result<ProviderPlan> PlanProvider(const config::ProviderConfig& pc,
                                  const std::string& base_override,
                                  const std::string& base_override_name,
                                  const std::shared_ptr<const providers::ModelTable>& models) {
  const std::string where = "providers." + pc.name;
  auto kind = providers::ParseProviderKind(pc.kind);
  if (!kind.ok()) return InvalidArgument(where + ".kind: " + kind.status().message());
  std::string base = !base_override.empty() ? base_override : pc.base_url;
  if (!base.empty()) {
    Status url = providers::CheckBaseUrl(base);
    if (!url.ok()) {
      return InvalidArgument((base_override.empty() ? where + ".base_url" : base_override_name) +
                             ": " + url.message());
    }
  }
  ProviderPlan plan;
  plan.handle.config = pc;
  auto endpoint = providers::EndpointFromEnv(*kind, base, nullptr, pc.api_key_env);
  if (endpoint.status().code() == Code::kUnauthenticated) {
    // Not fatal here: a provider nobody calls needs no key (Engine::Create checks those in use).
    plan.unusable_reason = endpoint.status().message();
    plan.handle.unusable = Status(Code::kUnauthenticated, where + ": " + plan.unusable_reason);
  } else if (!endpoint.ok()) {
    return Status(endpoint.status().code(), where + ": " + endpoint.status().message());
  } else {
    // A hosted provider's format at a local address (the simulator, a local proxy) wants a key
    // header: a placeholder is sent. Kinds that take no key (Ollama, vLLM, llama.cpp) get no
    // header at all. Never done for remote hosts.
    if (endpoint->api_key.empty() && providers::IsLoopbackUrl(endpoint->base_url) &&
        !providers::InfoOf(*kind).key_env.empty()) {
      endpoint->api_key = "local";
    }
    endpoint->timeout_ms = pc.limits.timeout_ms;
    endpoint->models = models;
    if (!pc.api.empty()) {
      auto api = providers::ParseOpenAiApi(pc.api);
      if (!api.ok()) return InvalidArgument(where + ".api: " + api.status().message());
      endpoint->openai_api = *api;
    }
    plan.pool.endpoint = *endpoint;
  }
  STRUCTURE_RETURN_IF_ERROR(PlanNetwork(
      pc,
      endpoint.ok()
          ? endpoint->base_url
          : providers::NormalizeBaseUrl(base.empty() ? providers::DefaultBaseUrl(*kind) : base),
      plan));

  std::string profile_name =
      pc.profile.empty()
          ? config::DefaultProfileFor(pc.kind, endpoint.ok() ? endpoint->base_url : base)
          : pc.profile;
  auto profile = pipeline::FindProfile(profile_name);
  if (!profile.ok()) return InvalidArgument(where + ".profile: " + profile.status().message());
  if (profile_name == "gemini-legacy") plan.pool.endpoint.gemini_legacy_schema = true;
  if (pc.profile_overrides.is_object()) {
    auto over = pipeline::ApplyProfileOverrides(*profile, pc.profile_overrides);
    if (!over.ok())
      return InvalidArgument(where + ".profile_overrides: " + over.status().message());
    profile = std::move(over);
  }
  plan.handle.kind = *kind;
  plan.handle.endpoint = plan.pool.endpoint;
  plan.handle.profile = std::make_shared<const pipeline::Profile>(std::move(*profile));
  ResolveModelProfiles(plan.handle);
  for (const auto& [model, p] : plan.handle.model_profiles) {
    if (!p.ok()) return p.status();
  }
  if (base_override.empty() && pc.name == config::kSimulatorProvider &&
      pc.base_url == config::kSimulatorBaseUrl) {
    plan.pool.unreachable_hint =
        "nothing answers at " + pc.base_url +
        ", where the built-in simulator provider is expected: start it there (`structure sim &`), "
        "or choose "
        "a provider with --provider NAME (`structure providers` lists them)";
  }
  plan.pool.limits.max_concurrency = pc.limits.max_concurrency;
  plan.pool.limits.requests_per_minute = pc.limits.requests_per_minute;
  plan.pool.limits.tokens_per_minute = pc.limits.tokens_per_minute;
  return plan;
}

}  // namespace

Result<config::EngineConfig> WithProviderFlag(config::EngineConfig config,
                                              const EngineOptions& options) {
  const std::string& provider = options.provider;
  const std::string& base_url = options.base_url;
  if (!base_url.empty()) {
    Status url = providers::CheckBaseUrl(base_url);
    if (!url.ok()) return InvalidArgument(options.names.base_url + ": " + url.message());
  }
  if (provider.empty() || config.providers.count(provider)) return config;
  auto builtin = config::BuiltinProvider(provider);
  if (!builtin) {
    std::vector<std::string> configured;
    for (const auto& [name, pc] : config.providers) configured.push_back(name);
    return NotFound("unknown provider '" + provider + "' (configured: " + Join(configured) +
                    "; built in: " + Join(config::BuiltinProviderNames()) + ")");
  }
  if (config::BuiltinNeedsBaseUrl(provider) && base_url.empty()) {
    return InvalidArgument("provider '" + provider + "' needs the server's address: give " +
                           options.names.base_url +
                           " URL (e.g. http://127.0.0.1:8000/v1 for a local vLLM)");
  }
  // An OpenAI-compatible service known by its host (DeepSeek) takes its own profile.
  builtin->profile = config::DefaultProfileFor(provider, base_url);
  config.providers.emplace(provider, std::move(*builtin));
  return config;
}

Result<std::vector<ProviderPlan>> PlanProviders(const config::EngineConfig& config,
                                                const std::string& base_url_override,
                                                const std::string& base_url_name) {
  auto models = providers::ModelTable::WithOverrides(config.model_families);
  if (!models.ok()) return InvalidArgument("model_families." + models.status().message());
  std::vector<ProviderPlan> plans;
  for (const auto& [name, pc] : config.providers) {
    auto plan = PlanProvider(pc, base_url_override, base_url_name, *models);
    if (!plan.ok()) return plan.status();
    plans.push_back(std::move(*plan));
  }
  return plans;
}

std::vector<std::string> ProvidersInUse(const config::EngineConfig& config,
                                        const std::string& provider) {
  if (!provider.empty()) return {provider};
  std::vector<std::string> names;
  for (const std::string* ref : {&config.settings.model, &config.settings.schema_builder_model}) {
    auto m = config::ResolveModel(config, *ref);
    if (m.ok() && (names.empty() || names[0] != m->provider)) names.push_back(m->provider);
  }
  return names;
}

}  // namespace structure::actors
