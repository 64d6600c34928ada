// GET /v1/schemas, GET/PUT/DELETE /v1/schemas/{name}: the registry at the key's tenant and an
// optional ?project=, with the same answers whether or not another tenant has the name.
#include <optional>

#include "registry/schema_registry.h"
#include "server/api.h"
#include "server/console/schema_check.h"

namespace structure::server {
namespace {

using http::HttpRequest;
using http::HttpResponse;
using http::JsonResponse;

Json EntryJson(const registry::RegisteredSchema& s, bool with_body) {
  Json j = Json::MakeObject();
  j.set("name", s.name);
  j.set("version", s.version);
  j.set("origin", s.origin);
  j.set("updatedAtMs", s.updated_at_ms);
  if (with_body) {
    j.set("schema", s.schema);
    j.set("manual", s.manual);
  } else {
    Json shadows = Json::MakeArray();
    for (const auto& o : s.shadows) shadows.push_back(o);
    j.set("shadows", std::move(shadows));
  }
  return j;
}

HttpResponse FromStatus(const Status& st) {
  int http = HttpStatusFor(st.code());
  return ErrorResponse(http, std::string(CodeName(st.code())), st.message());
}

Result<registry::Scope> ScopeOf(const HttpRequest& request, const Principal& who) {
  return Authorize(who, request.QueryParam("project").value_or(""));
}

// The body of a PUT (or a check of one) as a record; an error answer when it is not one.
// `parsed` receives the schema as JSON when given.
std::optional<HttpResponse> ReadRecord(const HttpRequest& request, const std::string& name,
                                       const ServerLimits& limits, registry::SchemaRecord& record,
                                       Json* parsed) {
  if (request.body.size() > limits.max_schema_bytes + limits.max_prompt_bytes) {
    return ErrorResponse(
        413, "too_large",
        "body: " + std::to_string(request.body.size()) + " bytes is over the limit of " +
            std::to_string(limits.max_schema_bytes + limits.max_prompt_bytes) +
            " bytes for a schema (server.max_schema_bytes + server.max_prompt_bytes)");
  }
  ParseOptions po;
  po.source = "body";
  po.max_depth = limits.max_schema_depth + 1;
  auto body = ParseJson(request.body, po);
  if (!body.ok()) return ErrorResponse(400, "bad_request", body.status().message());
  if (!body->is_object())
    return ErrorResponse(400, "bad_request", "the body must be a JSON object");
  record.name = name;
  for (const auto& [key, value] : body->as_object()) {
    if (key == "schema") {
      if (!value.is_object() && !value.is_bool()) {
        return ErrorResponse(400, "bad_request",
                             "schema: must be a JSON Schema (an object or a boolean)");
      }
      record.schema = ToJson(value);
      if (parsed != nullptr) *parsed = value;
    } else if (key == "version" || key == "manual") {
      if (!value.is_string()) return ErrorResponse(400, "bad_request", key + ": must be a string");
      (key == "version" ? record.version : record.manual) = value.as_string();
    } else {
      return ErrorResponse(400, "bad_request",
                           key + ": unknown field (expected schema, version, manual)");
    }
  }
  if (record.schema.empty()) return ErrorResponse(400, "bad_request", "schema: is required");
  if (record.schema.size() > limits.max_schema_bytes) {
    return ErrorResponse(
        413, "too_large",
        "schema: " + std::to_string(record.schema.size()) + " bytes is over the limit of " +
            std::to_string(limits.max_schema_bytes) + " bytes (server.max_schema_bytes)");
  }
  return std::nullopt;
}

}  // namespace

HttpResponse Api::ListSchemas(const HttpRequest& request, const Principal& who) {
  auto scope = ScopeOf(request, who);
  if (!scope.ok()) return ScopeRefused(scope.status());
  auto list = EngineInternal::Schemas(engine_).List(*scope);
  if (!list.ok()) return FromStatus(list.status());
  Json items = Json::MakeArray();
  for (const auto& s : *list) items.push_back(EntryJson(s, false));
  Json body = Json::MakeObject();
  body.set("schemas", std::move(items));
  return JsonResponse(200, ToJson(body));
}

HttpResponse Api::SchemaByName(const HttpRequest& request, const Principal& who,
                               const std::string& name) {
  auto scope = ScopeOf(request, who);
  if (!scope.ok()) return ScopeRefused(scope.status());
  registry::SchemaRegistry& reg = EngineInternal::Schemas(engine_);
  if (request.method == "GET") {
    // ?level=exact reads only the scope's own entry; the default is the effective one.
    auto level = request.QueryParam("level").value_or("effective");
    if (level != "effective" && level != "exact") {
      return ErrorResponse(400, "bad_request", "level: must be \"effective\" or \"exact\"");
    }
    auto found = level == "exact" ? reg.Get(*scope, name) : reg.Find(name, *scope);
    if (!found.ok()) return FromStatus(found.status());
    return JsonResponse(200, ToJson(EntryJson(*found, true)));
  }
  if (request.method == "DELETE") {
    Status st = reg.Delete(*scope, name);
    if (!st.ok()) return FromStatus(st);
    HttpResponse r;
    r.status = 204;
    return r;
  }
  // PUT {"schema": object|boolean, "version": "MAJOR.MINOR"?, "manual": "..."?}
  registry::SchemaRecord record;
  if (auto bad = ReadRecord(request, name, config_.limits, record, nullptr)) return *bad;
  Status st = reg.Put(*scope, record);
  if (!st.ok()) return FromStatus(st);
  auto stored = reg.Get(*scope, name);
  if (!stored.ok()) return FromStatus(stored.status());
  return JsonResponse(200, ToJson(EntryJson(*stored, true)));
}

HttpResponse Api::SchemaVersions(const HttpRequest& request, const Principal& who,
                                 const std::string& name) {
  auto scope = ScopeOf(request, who);
  if (!scope.ok()) return ScopeRefused(scope.status());
  auto history = EngineInternal::Schemas(engine_).History(*scope, name);
  if (!history.ok()) return FromStatus(history.status());
  Json versions = Json::MakeArray();
  for (const auto& v : *history) versions.push_back(EntryJson(v, true));
  Json body = Json::MakeObject();
  body.set("versions", std::move(versions));
  return JsonResponse(200, ToJson(body));
}

HttpResponse Api::SchemaCheck(const HttpRequest& request, const Principal& who,
                              const std::string& name) {
  auto scope = ScopeOf(request, who);
  if (!scope.ok()) return ScopeRefused(scope.status());
  registry::SchemaRecord record;
  Json schema;
  if (auto bad = ReadRecord(request, name, config_.limits, record, &schema)) return *bad;
  return JsonResponse(200, ToJson(SchemaCheckReport(engine_, *scope, record, schema)));
}

}  // namespace structure::server
