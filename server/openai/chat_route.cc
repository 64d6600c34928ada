// POST /v1/chat/completions, POST /v1/responses and GET /v1/models: the OpenAI-compatible
// endpoint of `structure serve` (docs/server.md). Authentication, admission and metrics are the
// API's own; what the request means and how the answer looks are the pure functions of
// server/openai/.
#include <chrono>
#include <variant>

#include "base/hex.h"
#include "registry/schema_registry.h"
#include "server/api.h"
#include "server/openai/chat_reply.h"
#include "server/openai/chat_request.h"
#include "server/openai/models.h"
#include "server/openai/responses_reply.h"
#include "server/openai/responses_request.h"
#include "server/openai/streamed_answer.h"

namespace structure::server {

using http::HttpRequest;
using http::HttpResponse;
using http::Responder;
using openai::ApiError;

namespace {

int64_t UnixSeconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

ApiError Forbidden(const std::string& message) {
  ApiError e;
  e.status = 403;
  e.type = "permission_error";
  e.code = "forbidden";
  e.message = message;
  return e;
}

}  // namespace

namespace {

// The key's scope for a listing: its tenant, and the project the query names when the key may
// use it.
registry::Scope ListingScope(const HttpRequest& request, const Principal& who) {
  std::string project = request.QueryParam("project").value_or("");
  auto scope = Authorize(who, project);
  if (scope.ok()) return {scope->tenant, scope->project};
  return {who.tenant, ""};
}

}  // namespace

HttpResponse Api::Models(const HttpRequest& request, const Principal& who) const {
  std::vector<openai::ModelEntry> models = openai::ListModels(EngineInternal::Config(engine_));
  auto schemas = EngineInternal::Schemas(engine_).List(ListingScope(request, who));
  if (schemas.ok()) {
    for (const registry::RegisteredSchema& s : *schemas) {
      models.push_back({openai::kSchemaModelPrefix + s.name, s.origin});
    }
  }
  return http::JsonResponse(200, openai::ModelsJson(models));
}

std::variant<std::string, ApiError> Api::SchemaModel(const std::string& model,
                                                     const registry::Scope& scope) const {
  auto read = openai::ReadSchemaModel(model);
  if (auto* e = std::get_if<ApiError>(&read)) return *e;
  const openai::SchemaModel& m = std::get<openai::SchemaModel>(read);
  auto found = EngineInternal::Schemas(engine_).Find(m.name, scope);
  if (!found.ok()) return openai::ModelNotFound(model, found.status().message());
  if (auto e = openai::CheckSchemaVersion(model, m, found->version)) return *e;
  return found->origin;
}

HttpResponse Api::Model(const HttpRequest& request, const Principal& who,
                        const std::string& id) const {
  const std::string name = PercentDecode(id, PlusIs::kPlus);
  if (openai::IsSchemaModel(name)) {
    auto origin = SchemaModel(name, ListingScope(request, who));
    if (auto* e = std::get_if<ApiError>(&origin)) return openai::ErrorResponse(*e);
    return http::JsonResponse(200, openai::ModelJson({name, std::get<std::string>(origin)}));
  }
  auto found = openai::RetrieveModel(EngineInternal::Config(engine_), name);
  if (auto* e = std::get_if<ApiError>(&found)) return openai::ErrorResponse(*e);
  return http::JsonResponse(200, openai::ModelJson(std::get<openai::ModelEntry>(found)));
}

// What differs between the two OpenAI request shapes: how the body is read, the answer's id,
// how a result is written (whole, or as events), and the endpoint the metrics count.
struct OpenAiShape {
  std::variant<openai::ChatRequest, ApiError> (*parse)(Json, const openai::ChatLimits&);
  std::string (*new_id)();
  std::string (*answer)(pipeline::StructureResult, const openai::ReplyContext&);
  openai::StreamedAnswer::EventsOf events;
  const char* endpoint;
};

namespace {

constexpr OpenAiShape kChatCompletions{openai::ParseChatRequest, openai::NewCompletionId,
                                       openai::CompletionJson, openai::CompletionEvents,
                                       "chat_completions"};
constexpr OpenAiShape kResponses{openai::ParseResponsesRequest, openai::NewResponseId,
                                 openai::ResponseJson, openai::ResponseEvents, "responses"};

}  // namespace

void Api::ChatCompletions(const HttpRequest& request, const Principal& who, Responder respond) {
  OpenAi(request, who, std::move(respond), kChatCompletions);
}

void Api::Responses(const HttpRequest& request, const Principal& who, Responder respond) {
  OpenAi(request, who, std::move(respond), kResponses);
}

void Api::OpenAi(const HttpRequest& request, const Principal& who, Responder respond,
                 const OpenAiShape& shape) {
  auto fail = [&respond](const ApiError& e) { respond(openai::ErrorResponse(e)); };
  const ServerLimits& limits = config_.limits;
  if (Busy()) {
    ApiError e;
    e.status = 429;
    e.type = "rate_limit_error";
    e.code = "server_busy";
    e.message =
        "the server has " + std::to_string(limits.max_inflight) + " calls under way; retry later";
    e.retry_after_s = 1;
    return fail(e);
  }
  ParseOptions po;
  po.source = "body";
  auto body = ParseJson(request.body, po);
  if (!body.ok()) {
    ApiError e;
    e.code = "invalid_json";
    e.message = "the body is not valid JSON: " + body.status().message();
    return fail(e);
  }
  openai::ChatLimits cl{limits.max_prompt_bytes, limits.max_schema_bytes, limits.max_schema_depth,
                        limits.min_loops, limits.max_loops};
  auto parsed = shape.parse(std::move(*body), cl);
  if (auto* e = std::get_if<ApiError>(&parsed)) return fail(*e);
  auto& chat = std::get<openai::ChatRequest>(parsed);
  // The tenant is the key's; the request may only repeat it.
  if (chat.tenant && *chat.tenant != who.tenant) {
    return fail(Forbidden("structure.tenant: must be the API key's own tenant"));
  }
  std::string project = chat.project.value_or(request.QueryParam("project").value_or(""));
  auto scope = Authorize(who, project);
  if (!scope.ok()) return fail(Forbidden(scope.status().message()));
  const config::EngineConfig& config = EngineInternal::Config(engine_);
  std::variant<std::string, ApiError> model;
  if (chat.schema_model) {
    // The schema must be there for the key (at the version asked); the call runs on the alias of
    // that name or the configured default.
    auto origin = SchemaModel(chat.model, {scope->tenant, scope->project});
    if (auto* e = std::get_if<ApiError>(&origin)) return fail(*e);
    model = openai::SchemaModelRoute(config, chat.model);
  } else {
    model = openai::RouteModel(config, chat.model);
  }
  if (auto* e = std::get_if<ApiError>(&model)) return fail(*e);

  openai::ReplyContext context;
  context.id = shape.new_id();
  context.created = UnixSeconds();
  context.model = chat.model;
  context.tool_name = chat.tool_name;
  context.need = chat.need;
  context.include_usage = chat.include_usage;
  std::string schema_param = chat.schema_model              ? "model"
                             : chat.registry_schema.empty() ? chat.schema_param
                                                            : "structure.schemaName";
  auto call =
      openai::ToStructureRequest(chat, std::get<std::string>(model), scope->tenant, scope->project);
  if (chat.stream) {
    auto answer = std::make_shared<openai::StreamedAnswer>(std::move(respond), std::move(context),
                                                           std::move(schema_param), shape.events);
    answer->Start(timer_, std::chrono::milliseconds(limits.stream_keepalive_ms));
    return Run(std::move(call), shape.endpoint,
               [answer](pipeline::StructureResult r) { answer->Finish(std::move(r)); });
  }
  Run(std::move(call), shape.endpoint,
      [respond, context = std::move(context), schema_param = std::move(schema_param),
       write = shape.answer](pipeline::StructureResult r) {
        if (auto e = openai::ResultError(r, context, schema_param)) {
          return respond(openai::ErrorResponse(*e));
        }
        respond(http::JsonResponse(200, write(std::move(r), context)));
      });
}

}  // namespace structure::server
