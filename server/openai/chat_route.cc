// POST /v1/chat/completions, POST /v1/responses and GET /v1/models: the OpenAI-compatible
// endpoint of `structure serve` (docs/server.md). Authentication, admission and metrics are the
// API's own; what the request means and how the answer looks are the pure functions of
// server/openai/.
#include <chrono>
#include <variant>

#include "base/hex.h"
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

HttpResponse Api::Models() const {
  return http::JsonResponse(
      200, openai::ModelsJson(openai::ListModels(EngineInternal::Config(engine_))));
}

HttpResponse Api::Model(const std::string& id) const {
  const std::string name = PercentDecode(id, PlusIs::kPlus);
  auto found = openai::ModelJson(openai::ListModels(EngineInternal::Config(engine_)), name);
  if (auto* e = std::get_if<ApiError>(&found)) return openai::ErrorResponse(*e);
  return http::JsonResponse(200, std::get<std::string>(found));
}

std::variant<Json, ApiError> Api::OpenAiBody(const HttpRequest& request) const {
  if (Busy()) {
    ApiError e;
    e.status = 429;
    e.type = "rate_limit_error";
    e.code = "server_busy";
    e.message = "the server has " + std::to_string(config_.limits.max_inflight) +
                " calls under way; retry later";
    e.retry_after_s = 1;
    return e;
  }
  ParseOptions po;
  po.source = "body";
  auto body = ParseJson(request.body, po);
  if (!body.ok()) {
    ApiError e;
    e.code = "invalid_json";
    e.message = "the body is not valid JSON: " + body.status().message();
    return e;
  }
  return std::move(*body);
}

openai::ChatLimits Api::OpenAiLimits() const {
  const ServerLimits& limits = config_.limits;
  return {limits.max_prompt_bytes, limits.max_schema_bytes, limits.max_schema_depth,
          limits.min_loops, limits.max_loops};
}

std::variant<pipeline::StructureRequest, ApiError> Api::OpenAiCall(const HttpRequest& request,
                                                                   const Principal& who,
                                                                   openai::ChatRequest& chat) {
  // The tenant is the key's; the request may only repeat it.
  if (chat.tenant && *chat.tenant != who.tenant) {
    return Forbidden("structure.tenant: must be the API key's own tenant");
  }
  std::string project = chat.project.value_or(request.QueryParam("project").value_or(""));
  auto scope = Authorize(who, project);
  if (!scope.ok()) return Forbidden(scope.status().message());
  auto model = openai::RouteModel(EngineInternal::Config(engine_), chat.model);
  if (auto* e = std::get_if<ApiError>(&model)) return *e;
  return openai::ToStructureRequest(chat, std::get<std::string>(model), scope->tenant,
                                    scope->project);
}

void Api::ChatCompletions(const HttpRequest& request, const Principal& who, Responder respond) {
  auto fail = [&respond](const ApiError& e) { respond(openai::ErrorResponse(e)); };
  auto body = OpenAiBody(request);
  if (auto* e = std::get_if<ApiError>(&body)) return fail(*e);
  auto parsed = openai::ParseChatRequest(std::get<Json>(std::move(body)), OpenAiLimits());
  if (auto* e = std::get_if<ApiError>(&parsed)) return fail(*e);
  auto& chat = std::get<openai::ChatRequest>(parsed);
  auto call = OpenAiCall(request, who, chat);
  if (auto* e = std::get_if<ApiError>(&call)) return fail(*e);

  openai::ReplyContext context;
  context.id = openai::NewCompletionId();
  context.created = UnixSeconds();
  context.model = chat.model;
  context.tool_name = chat.tool_name;
  context.need = chat.need;
  context.include_usage = chat.include_usage;
  std::string schema_param =
      chat.registry_schema.empty() ? chat.schema_param : "structure.schemaName";
  auto& structure_call = std::get<pipeline::StructureRequest>(call);
  if (chat.stream) {
    auto answer = std::make_shared<openai::StreamedAnswer>(std::move(respond), std::move(context),
                                                           std::move(schema_param));
    answer->Start(timer_, std::chrono::milliseconds(config_.limits.stream_keepalive_ms));
    return Run(std::move(structure_call), "chat_completions",
               [answer](pipeline::StructureResult r) { answer->Finish(std::move(r)); });
  }
  Run(std::move(structure_call), "chat_completions",
      [respond, context = std::move(context),
       schema_param = std::move(schema_param)](pipeline::StructureResult r) {
        if (auto e = openai::ResultError(r, context, schema_param)) {
          return respond(openai::ErrorResponse(*e));
        }
        respond(http::JsonResponse(200, openai::CompletionJson(std::move(r), context)));
      });
}

void Api::Responses(const HttpRequest& request, const Principal& who, Responder respond) {
  auto fail = [&respond](const ApiError& e) { respond(openai::ErrorResponse(e)); };
  auto body = OpenAiBody(request);
  if (auto* e = std::get_if<ApiError>(&body)) return fail(*e);
  auto parsed = openai::ParseResponsesRequest(std::get<Json>(std::move(body)), OpenAiLimits());
  if (auto* e = std::get_if<ApiError>(&parsed)) return fail(*e);
  auto& chat = std::get<openai::ChatRequest>(parsed);
  auto call = OpenAiCall(request, who, chat);
  if (auto* e = std::get_if<ApiError>(&call)) return fail(*e);

  openai::ReplyContext context;
  context.id = openai::NewResponseId();
  context.created = UnixSeconds();
  context.model = chat.model;
  context.tool_name = chat.tool_name;
  context.need = chat.need;
  std::string schema_param =
      chat.registry_schema.empty() ? chat.schema_param : "structure.schemaName";
  if (chat.stream) {
    auto answer = std::make_shared<openai::StreamedAnswer>(
        std::move(respond), std::move(context), std::move(schema_param), openai::ResponseEvents);
    answer->Start(timer_, std::chrono::milliseconds(config_.limits.stream_keepalive_ms));
    return Run(std::get<pipeline::StructureRequest>(std::move(call)), "responses",
               [answer](pipeline::StructureResult r) { answer->Finish(std::move(r)); });
  }
  Run(std::get<pipeline::StructureRequest>(std::move(call)), "responses",
      [respond, context = std::move(context),
       schema_param = std::move(schema_param)](pipeline::StructureResult r) {
        if (auto e = openai::ResultError(r, context, schema_param)) {
          return respond(openai::ErrorResponse(*e));
        }
        respond(http::JsonResponse(200, openai::ResponseJson(std::move(r), context)));
      });
}

}  // namespace structure::server
