// Model names on the OpenAI-compatible endpoint: which configured model a request's `model`
// names, and the list GET /v1/models answers. Pure functions of the engine's configuration.
#pragma once

#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "config/engine_config.h"
#include "server/openai/openai_error.h"

namespace structure::server::openai {

struct ModelEntry {
  std::string id;        // "default:fast", "openai/gpt-4o-mini", "gpt-4o-mini", "schema:invoice"
  std::string owned_by;  // the configured provider it runs on; a schema's registry origin
};

// Every alias, then provider/model for each model a provider lists (its default model and those
// its models and model_profiles tables name), in name order, then each bare model name that
// exactly one provider lists and that is no alias or provider name (RouteModel routes it).
std::vector<ModelEntry> ListModels(const config::EngineConfig& config);

// The reference the engine resolves for `model`, read as every command reads one
// (config::ReadModelRef): a configured alias or provider's name as it is, provider/model, a bare
// model name that exactly one provider lists as that provider/model. Anything else, a built-in
// provider this server has not configured included, is OpenAI's 404 model_not_found with the
// reason.
std::variant<std::string, ApiError> RouteModel(const config::EngineConfig& config,
                                               const std::string& model);

// GET /v1/models/{id} for a model id that is not a schema model: RouteModel's reading, as
// {id as asked, the provider it runs on}; RouteModel's 404 otherwise.
std::variant<ModelEntry, ApiError> RetrieveModel(const config::EngineConfig& config,
                                                 const std::string& id);

// A `model` that names a registry schema, for clients that cannot send one:
// "schema:NAME" or "schema:NAME@MAJOR.MINOR".
inline constexpr char kSchemaModelPrefix[] = "schema:";
struct SchemaModel {
  std::string name;
  std::string version;  // "" = whatever version the registry holds
};
bool IsSchemaModel(const std::string& model);
// The name and version of a schema model; a 400 naming `model` when either is malformed.
std::variant<SchemaModel, ApiError> ReadSchemaModel(const std::string& model);
// Whether the registry's `found` version serves a request for `asked`: the same MAJOR and a
// MINOR at least the one asked (a minor step is compatible, registry/schema_compat.h). Else
// OpenAI's 404 model_not_found saying which version the registry holds.
std::optional<ApiError> CheckSchemaVersion(const std::string& model, const SchemaModel& asked,
                                           const std::string& found);
// The model a schema model's call runs on: an alias of exactly that name when [aliases] has
// one, else "" (the configured default model of the tenant and project).
std::string SchemaModelRoute(const config::EngineConfig& config, const std::string& model);
// OpenAI's 404 model_not_found for `model`, saying `why`.
ApiError ModelNotFound(const std::string& model, const std::string& why);

// {"object": "list", "data": [{"id", "object": "model", "created": 0, "owned_by"}]}.
std::string ModelsJson(const std::vector<ModelEntry>& models);

// {"id", "object": "model", "created": 0, "owned_by"}.
std::string ModelJson(const ModelEntry& model);

}  // namespace structure::server::openai
