// From configuration to providers the engine can start: the built-in provider `--provider KIND`
// names, the endpoint (base URL, key variable), the capability profile with its overrides and
// the pool settings. Pure checks, nothing is started, so `config check` gives the verdict
// Engine::Create would.
#pragma once

#include <string>
#include <vector>

#include "actors/engine_context.h"
#include "actors/messages.h"
#include "config/engine_config.h"
#include "structure/options.h"
#include "structure/status.h"

namespace structure::actors {

// One provider, checked: `handle` has everything but its pool; handle.unusable says why calls
// cannot use it (a hosted provider whose key variable is not set).
struct ProviderPlan {
  ProviderHandle handle;
  PoolConfig pool;
  std::string warning;  // said once at start (verify_tls = false on a remote host)
  // What handle.unusable says without naming the provider ("OPENAI_API_KEY is not set ..."),
  // for a message that names it its own way; empty when the provider is usable.
  std::string unusable_reason;
};

// The configuration with the provider `options.provider` names added when it is a built-in kind
// not configured (config/builtin_providers.h). Checks `options.base_url` (an http(s) URL) and
// that an openai-compatible built-in has one, naming it as `options.names` says. kNotFound for a
// provider that is neither configured nor built in, naming both lists.
Result<config::EngineConfig> WithProviderFlag(config::EngineConfig config,
                                              const EngineOptions& options);

// Checks every provider of `config` (base URL, profile, overrides, model profiles) and builds
// its plan. kInvalidArgument names the provider and key: "providers.b.profile: unknown profile";
// a bad `base_url_override` is named `base_url_name`.
Result<std::vector<ProviderPlan>> PlanProviders(const config::EngineConfig& config,
                                                const std::string& base_url_override,
                                                const std::string& base_url_name);

// The names of the providers every call may use: `provider` when set, else those of
// structure.model and structure.schemaBuilderModel.
std::vector<std::string> ProvidersInUse(const config::EngineConfig& config,
                                        const std::string& provider);

}  // namespace structure::actors
