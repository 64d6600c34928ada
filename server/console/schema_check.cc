#include "server/console/schema_check.h"

#include "pipeline/validator/validator.h"
#include "registry/schema_registry.h"
#include "server/console/provider_check.h"

namespace structure::server {
namespace {

// What the put would stand beside: the entries of the name at the scope and below.
std::string Neighbours(registry::SchemaRegistry& reg, const registry::Scope& scope,
                       const std::string& name) {
  auto list = reg.List(scope);
  if (!list.ok()) return "";
  for (const auto& e : *list) {
    if (e.name != name) continue;
    std::string s = e.version + " at " + e.origin;
    for (const auto& o : e.shadows) s += ", " + o;
    return s;
  }
  return "";
}

}  // namespace

Json SchemaCheckReport(Engine& engine, const registry::Scope& scope,
                       const registry::SchemaRecord& record, const Json& schema) {
  registry::SchemaRegistry& reg = engine.schemas();
  Json validator = Json::MakeObject();
  pipeline::ValidatorOptions strict;
  strict.strict = true;
  Json bare = schema;
  if (bare.is_object()) bare.erase("x-version");
  auto compiled = pipeline::CompileSchema(bare, strict);
  validator.set("ok", compiled.ok());
  Json errors = Json::MakeArray();
  if (!compiled.ok()) errors.push_back(Json(compiled.status().message()));
  validator.set("errors", std::move(errors));

  Status put = reg.CheckPut(scope, record);
  Json compatibility = Json::MakeObject();
  if (!compiled.ok()) {
    compatibility.set("ok", false);
    compatibility.set("message", "not checked: the schema does not compile");
  } else {
    compatibility.set("ok", put.ok());
    std::string around = Neighbours(reg, scope, record.name);
    compatibility.set("message", put.ok() ? (around.empty() ? "a new name at this level"
                                                            : "compatible with " + around)
                                          : put.message());
  }
  Json report = Json::MakeObject();
  report.set("accepted", put.ok());
  if (!put.ok()) report.set("problem", put.message());
  report.set("validator", std::move(validator));
  report.set("compatibility", std::move(compatibility));
  report.set("providers", compiled.ok()
                              ? ProviderVerdictsJson(CheckProviders(engine.config(), bare))
                              : Json::MakeArray());
  return report;
}

}  // namespace structure::server
