// What every request actor shares (immutable after the engine starts): configuration, one pool
// per provider with its capability profile, the registry and the builder cache.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <string>

#include <caf/all.hpp>

#include "actors/provider_pool.h"
#include "config/engine_config.h"
#include "pipeline/profile.h"
#include "registry/schema_registry.h"

namespace structure::actors {

struct ProviderHandle {
  config::ProviderConfig config;
  pipeline::Profile profile;  // the provider's profile with its overrides (not per model)
  ProviderPoolActor pool;
};

struct EngineContext {
  config::EngineConfig config;
  std::string provider_override;
  std::map<std::string, ProviderHandle> providers;
  std::shared_ptr<registry::SchemaRegistry> registry;
  caf::actor builder_cache;
  std::chrono::milliseconds call_timeout{0};
};

// The provider, model and profile a model reference resolves to.
struct Target {
  const ProviderHandle* provider = nullptr;
  std::string model;
  pipeline::Profile profile;  // with the model's overrides applied
};

// Resolves `model_ref` (alias, "provider/model" or provider) honouring the provider override.
// kNotFound names the unknown alias or provider; kInvalidArgument a bad profile override.
Result<Target> ResolveTarget(const EngineContext& ctx, const std::string& model_ref);

}  // namespace structure::actors
