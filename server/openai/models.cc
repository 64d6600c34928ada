#include "server/openai/models.h"

#include <map>

#include "base/json.h"
#include "config/model_ref.h"
#include "registry/schema_name.h"
#include "registry/schema_version.h"

namespace structure::server::openai {

ApiError ModelNotFound(const std::string& model, const std::string& why) {
  ApiError e;
  e.status = 404;
  e.code = "model_not_found";
  e.param = "model";
  e.message = "The model `" + model + "` does not exist or you do not have access to it: " + why +
              " (GET /v1/models lists the models of this server)";
  return e;
}

std::vector<ModelEntry> ListModels(const config::EngineConfig& config) {
  std::vector<ModelEntry> out;
  for (const auto& [name, alias] : config.aliases) out.push_back({name, alias.provider});
  std::map<std::string, std::vector<std::string>> listed_by;  // bare model -> providers
  for (const auto& [name, provider] : config.providers) {
    for (const std::string& model : config::ProviderModels(provider)) {
      out.push_back({name + "/" + model, name});
      listed_by[model].push_back(name);
    }
  }
  for (const auto& [model, providers] : listed_by) {
    if (providers.size() != 1 || config.aliases.count(model) || config.providers.count(model)) {
      continue;
    }
    out.push_back({model, providers[0]});
  }
  return out;
}

std::variant<std::string, ApiError> RouteModel(const config::EngineConfig& config,
                                               const std::string& model) {
  auto choice = config::ReadModelRef(config, model);
  if (!choice.ok()) return ModelNotFound(model, choice.status().message());
  if (choice->builtin) {
    return ModelNotFound(model,
                         "provider '" + choice->provider + "' is not configured on this server");
  }
  if (config.aliases.count(model) || config.providers.count(model)) return model;
  return choice->provider + "/" + choice->model;
}

std::variant<ModelEntry, ApiError> RetrieveModel(const config::EngineConfig& config,
                                                 const std::string& id) {
  auto routed = RouteModel(config, id);
  if (auto* e = std::get_if<ApiError>(&routed)) return *e;
  auto alias = config.aliases.find(id);
  if (alias != config.aliases.end()) return ModelEntry{id, alias->second.provider};
  const std::string& ref = std::get<std::string>(routed);
  return ModelEntry{id, ref.substr(0, ref.find('/'))};
}

bool IsSchemaModel(const std::string& model) { return model.rfind(kSchemaModelPrefix, 0) == 0; }

std::variant<SchemaModel, ApiError> ReadSchemaModel(const std::string& model) {
  std::string rest = model.substr(std::string(kSchemaModelPrefix).size());
  SchemaModel out;
  size_t at = rest.find('@');
  out.name = rest.substr(0, at);
  if (at != std::string::npos) out.version = rest.substr(at + 1);
  auto bad = [&](const std::string& what) {
    return BadField("model", "\"" + model +
                                 "\" names a registry schema as schema:NAME or "
                                 "schema:NAME@MAJOR.MINOR: " +
                                 what);
  };
  if (out.name.empty()) return bad("the name is missing");
  if (Status st = registry::ValidateSchemaName(out.name); !st.ok()) return bad(st.message());
  if (at != std::string::npos) {
    auto v = registry::ParseSchemaVersion(out.version);
    if (!v.ok()) return bad(v.status().message());
  }
  return out;
}

std::optional<ApiError> CheckSchemaVersion(const std::string& model, const SchemaModel& asked,
                                           const std::string& found) {
  if (asked.version.empty()) return std::nullopt;
  auto want = registry::ParseSchemaVersion(asked.version);
  auto have = registry::ParseSchemaVersion(found);
  if (want.ok() && have.ok() && want->major == have->major && have->minor >= want->minor) {
    return std::nullopt;
  }
  return ModelNotFound(model, "the registry holds schema " + asked.name + " at version " + found +
                                  ", which does not serve version " + asked.version +
                                  " (the same MAJOR and a MINOR at least " + asked.version +
                                  " do; name schema:" + asked.name + "@" + found + ")");
}

std::string SchemaModelRoute(const config::EngineConfig& config, const std::string& model) {
  return config.aliases.count(model) ? model : "";
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

std::string ModelJson(const ModelEntry& model) { return ToJson(Entry(model)); }

}  // namespace structure::server::openai
