#include "server/openai/models.h"

#include "base/json.h"
#include "config/model_ref.h"

namespace structure::server::openai {
namespace {

ApiError NotFound(const std::string& model, const std::string& why) {
  ApiError e;
  e.status = 404;
  e.code = "model_not_found";
  e.param = "model";
  e.message = "The model `" + model + "` does not exist or you do not have access to it: " + why +
              " (GET /v1/models lists the models of this server)";
  return e;
}

}  // namespace

std::vector<ModelEntry> ListModels(const config::EngineConfig& config) {
  std::vector<ModelEntry> out;
  for (const auto& [name, alias] : config.aliases) out.push_back({name, alias.provider});
  for (const auto& [name, provider] : config.providers) {
    for (const std::string& model : config::ProviderModels(provider)) {
      out.push_back({name + "/" + model, name});
    }
  }
  return out;
}

std::variant<std::string, ApiError> RouteModel(const config::EngineConfig& config,
                                               const std::string& model) {
  auto choice = config::ReadModelRef(config, model);
  if (!choice.ok()) return NotFound(model, choice.status().message());
  if (choice->builtin) {
    return NotFound(model, "provider '" + choice->provider + "' is not configured on this server");
  }
  if (config.aliases.count(model) || config.providers.count(model)) return model;
  return choice->provider + "/" + choice->model;
}

namespace {

Json Entry(const ModelEntry& m) {
  Json entry = Json::MakeObject();
  entry.set("id", m.id);
  entry.set("object", "model");
  entry.set("created", 0);
  entry.set("owned_by", m.owned_by);
  return entry;
}

}  // namespace

std::string ModelsJson(const std::vector<ModelEntry>& models) {
  Json data = Json::MakeArray();
  for (const ModelEntry& m : models) data.push_back(Entry(m));
  Json list = Json::MakeObject();
  list.set("object", "list");
  list.set("data", std::move(data));
  return ToJson(list);
}

std::variant<std::string, ApiError> ModelJson(const std::vector<ModelEntry>& models,
                                              const std::string& id) {
  for (const ModelEntry& m : models) {
    if (m.id == id) return ToJson(Entry(m));
  }
  return NotFound(id, "no alias or provider/model of this server is named so");
}

}  // namespace structure::server::openai
