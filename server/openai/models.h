// Model names on the OpenAI-compatible endpoint: which configured model a request's `model`
// names, and the list GET /v1/models answers. Pure functions of the engine's configuration.
#pragma once

#include <string>
#include <variant>
#include <vector>

#include "config/engine_config.h"
#include "server/openai/openai_error.h"

namespace structure::server::openai {

struct ModelEntry {
  std::string id;        // "default:fast", "openai/gpt-4o-mini"
  std::string owned_by;  // the configured provider it runs on
};

// Every alias, then provider/model for each model a provider lists (its default model and those
// its models and model_profiles tables name), in name order.
std::vector<ModelEntry> ListModels(const config::EngineConfig& config);

// The reference the engine resolves for `model`, read as every command reads one
// (config::ReadModelRef): a configured alias or provider's name as it is, provider/model, a bare
// model name that exactly one provider lists as that provider/model. Anything else, a built-in
// provider this server has not configured included, is OpenAI's 404 model_not_found with the
// reason.
std::variant<std::string, ApiError> RouteModel(const config::EngineConfig& config,
                                               const std::string& model);

// {"object": "list", "data": [{"id", "object": "model", "created": 0, "owned_by"}]}.
std::string ModelsJson(const std::vector<ModelEntry>& models);

// The entry of `models` whose id is `id`, as {"id", "object": "model", "created": 0,
// "owned_by"}; OpenAI's 404 model_not_found when there is none.
std::variant<std::string, ApiError> ModelJson(const std::vector<ModelEntry>& models,
                                              const std::string& id);

}  // namespace structure::server::openai
