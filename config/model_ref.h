// What a model reference names: the one reading of `--model` (run, batch), a request's `model`
// (serve, batch lines) and the OpenAI endpoint's `model`, so all of them route a name alike.
#pragma once

#include <set>
#include <string>

#include "config/engine_config.h"
#include "structure/status.h"

namespace structure::config {

struct ModelChoice {
  std::string provider;  // a configured provider, or a built-in one when `builtin`
  std::string model;     // empty = the provider's default model
  // The provider is built in (config/builtin_providers.h) and not configured: the command line
  // selects it as --provider does; a server, whose providers are fixed, refuses it.
  bool builtin = false;
};

// Reads `ref`, in this order: an alias of [aliases]; PROVIDER (its default model) or
// PROVIDER/MODEL of a configured provider; the same of a built-in provider that is not
// configured (`builtin`); a bare MODEL that exactly one configured provider lists (its default
// model, or a key of its models or model_profiles tables). kInvalidArgument for "P/" with no
// model; kNotFound otherwise, saying to write PROVIDER/MODEL and listing the configured aliases
// and providers (and, for a bare name several providers list, which ones).
Result<ModelChoice> ReadModelRef(const EngineConfig& config, const std::string& ref);

// The models a configured provider lists: its default model and the keys of its models and
// model_profiles tables.
std::set<std::string> ProviderModels(const ProviderConfig& provider);

// The engine's reading: ReadModelRef, with a built-in provider that is not configured refused
// (kNotFound "provider 'openai' is not configured here: ..."), as the engine can call only the
// providers it was started with.
Result<ModelAlias> ResolveModel(const EngineConfig& config, const std::string& model_ref);

}  // namespace structure::config
