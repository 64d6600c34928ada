#include "engine/provider_setup.h"

#include <cstdlib>

#include "config/builtin_providers.h"
#include "config/load_config.h"
#include "config/settings.h"
#include "providers/endpoint.h"

namespace structure::actors {
namespace {

std::string Join(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

Result<ProviderPlan> PlanProvider(const config::ProviderConfig& pc,
                                  const std::string& base_override) {
  const std::string where = "providers." + pc.name;
  auto kind = providers::ParseProviderKind(pc.kind);
  if (!kind.ok()) return InvalidArgument(where + ".kind: " + kind.status().message());
  std::string base = !base_override.empty() ? base_override : pc.base_url;
  if (!base.empty()) {
    Status url = providers::CheckBaseUrl(base);
    if (!url.ok()) {
      return InvalidArgument((base_override.empty() ? where + ".base_url: " : "--base-url: ") +
                             url.message());
    }
  }
  ProviderPlan plan;
  plan.handle.config = pc;
  auto endpoint = providers::EndpointFromEnv(*kind, base, nullptr, pc.api_key_env);
  if (endpoint.status().code() == Code::kUnauthenticated) {
    // Not fatal here: a provider nobody calls needs no key (Engine::Create checks those in use).
    plan.handle.unusable =
        Status(Code::kUnauthenticated, where + ": " + endpoint.status().message());
  } else if (!endpoint.ok()) {
    return Status(endpoint.status().code(), where + ": " + endpoint.status().message());
  } else {
    // Local servers (the simulator, vLLM, llama.cpp) take any key; send a placeholder so those
    // that require the header are satisfied. Never done for remote hosts.
    if (endpoint->api_key.empty() && providers::IsLoopbackUrl(endpoint->base_url))
      endpoint->api_key = "local";
    endpoint->timeout_ms = pc.limits.timeout_ms;
    plan.pool.endpoint = *endpoint;
  }

  std::string profile_name = pc.profile.empty() ? config::DefaultProfileFor(pc.kind) : pc.profile;
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
                                              const std::string& provider,
                                              const std::string& base_url) {
  if (!base_url.empty()) {
    Status url = providers::CheckBaseUrl(base_url);
    if (!url.ok()) return InvalidArgument("--base-url: " + url.message());
  }
  if (provider.empty() || config.providers.count(provider)) return config;
  auto builtin = config::BuiltinProvider(provider);
  if (!builtin) {
    std::vector<std::string> configured;
    for (const auto& [name, pc] : config.providers) configured.push_back(name);
    return NotFound("unknown provider '" + provider + "' (configured: " + Join(configured) +
                    "; built in: " + Join(config::BuiltinProviderNames()) + ")");
  }
  if (builtin->kind == "openai-compatible" && base_url.empty()) {
    return InvalidArgument(
        "provider 'openai-compatible' needs the server's address: give --base-url URL");
  }
  config.providers.emplace(provider, std::move(*builtin));
  return config;
}

Result<std::vector<ProviderPlan>> PlanProviders(const config::EngineConfig& config,
                                                const std::string& base_url_override) {
  std::vector<ProviderPlan> plans;
  for (const auto& [name, pc] : config.providers) {
    auto plan = PlanProvider(pc, base_url_override);
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
