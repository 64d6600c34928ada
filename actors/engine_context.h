// What every request actor shares (immutable after the engine starts): configuration, one pool
// per provider with its capability profile, the registry and the builder cache.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>

#include <caf/all.hpp>

#include "actors/check_runner.h"
#include "actors/plan_cache.h"
#include "actors/provider_pool.h"
#include "config/engine_config.h"
#include "pipeline/loop/content_loop.h"
#include "pipeline/lowering/profile.h"
#include "providers/endpoint.h"
#include "providers/transport/network.h"
#include "registry/schema_registry.h"

namespace structure::actors {

struct ProviderHandle {
  config::ProviderConfig config;
  providers::ProviderKind kind = providers::ProviderKind::kOpenAi;
  std::shared_ptr<const pipeline::Profile> profile;  // with the provider's overrides
  // config.model_profiles applied on top of `profile`, per model (or why they do not apply).
  std::map<std::string, Result<std::shared_ptr<const pipeline::Profile>>> model_profiles;
  ProviderPoolActor pool;             // null when `unusable` is set
  providers::Endpoint endpoint;       // what the pool sends to (kind, base URL, key)
  providers::NetworkOptions network;  // proxy, trusted CAs, TLS checks of its transport
  Status unusable;  // why calls cannot use this provider (no API key), ok otherwise
};

// Fills h.model_profiles from h.config and h.profile.
void ResolveModelProfiles(ProviderHandle& h);

struct EngineContext {
  config::EngineConfig config;
  std::string provider_override;
  std::map<std::string, ProviderHandle> providers;
  std::shared_ptr<registry::SchemaRegistry> registry;
  caf::actor builder_cache;
  std::shared_ptr<PlanCache> plans = std::make_shared<PlanCache>();
  // External semantic checks: by tenant ("" = the default), run on `check_runner`'s thread.
  std::map<std::string, std::shared_ptr<const CheckCommand>> checks;
  std::shared_ptr<CheckRunner> check_runner;  // set iff `checks` is not empty
};

// The check command for a request of `tenant`, or null.
std::shared_ptr<const CheckCommand> CheckFor(const EngineContext& ctx, const std::string& tenant);

// The provider, model and profile a model reference resolves to.
struct Target {
  const ProviderHandle* provider = nullptr;
  std::string model;
  std::shared_ptr<const pipeline::Profile> profile;  // with the model's overrides applied
  config::ModelSettings settings;                    // thinking and output cap of the model
};

// The target's thinking settings and output cap on a loop spec (the plan's cap is the answer's;
// thinking models get room beyond it, providers/thinking.h).
void ApplyTarget(const Target& target, pipeline::LoopSpec& spec);

// Resolves `model_ref` (alias, "provider/model" or provider) honouring the provider override.
// kNotFound names the unknown alias or provider; kInvalidArgument a bad profile override.
Result<Target> ResolveTarget(const EngineContext& ctx, const std::string& model_ref);

}  // namespace structure::actors
