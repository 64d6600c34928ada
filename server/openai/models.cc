#include "server/openai/models.h"

#include <set>

#include "base/json.h"

namespace structure::server::openai {
namespace {

// The models a provider names: its default and its per-model tables.
std::set<std::string> ProviderModels(const config::ProviderConfig& p) {
  std::set<std::string> out;
  if (!p.model.empty()) out.insert(p.model);
  for (const auto& [model, settings] : p.models) out.insert(model);
  for (const auto& [model, profile] : p.model_profiles) out.insert(model);
  return out;
}

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
    for (const std::string& model : ProviderModels(provider)) {
      out.push_back({name + "/" + model, name});
    }
  }
  return out;
}

std::variant<std::string, ApiError> RouteModel(const config::EngineConfig& config,
                                               const std::string& model) {
  if (config.aliases.count(model) || config.providers.count(model)) return model;
  size_t slash = model.find('/');
  if (slash != std::string::npos) {
    std::string provider = model.substr(0, slash);
    if (config.providers.count(provider) && slash + 1 < model.size()) return model;
    return NotFound(model, "no provider named '" + provider + "' is configured");
  }
  std::vector<std::string> listing;
  for (const auto& [name, provider] : config.providers) {
    if (ProviderModels(provider).count(model)) listing.push_back(name);
  }
  if (listing.size() == 1) return listing[0] + "/" + model;
  if (listing.empty())
    return NotFound(model, "no alias, provider or provider's model has that name");
  std::string names;
  for (const std::string& n : listing) names += (names.empty() ? "" : ", ") + n + "/" + model;
  return NotFound(model, "several providers list it; name one: " + names);
}

std::string ModelsJson(const std::vector<ModelEntry>& models) {
  Json data = Json::MakeArray();
  for (const ModelEntry& m : models) {
    Json entry = Json::MakeObject();
    entry.set("id", m.id);
    entry.set("object", "model");
    entry.set("created", 0);
    entry.set("owned_by", m.owned_by);
    data.push_back(std::move(entry));
  }
  Json list = Json::MakeObject();
  list.set("object", "list");
  list.set("data", std::move(data));
  return ToJson(list);
}

}  // namespace structure::server::openai
