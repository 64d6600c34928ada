#include "server/api.h"

#include <chrono>

#include "base/error_codes.h"
#include "base/json.h"
#include "registry/schema_registry.h"
#include "server/console/console_files.h"
#include "server/openai/endpoints.h"
#include "server/openai/openai_error.h"
#include "server/openapi.h"

namespace structure::server {
namespace {

using http::HttpRequest;
using http::HttpResponse;
using http::JsonResponse;
using http::Responder;
using pipeline::StructureResult;

// Tenant and project ids never appear in /metrics (it is not tenant-scoped).
std::string MetricsOrigin(const std::string& origin) {
  for (const char* prefix : {"registry:tenant:", "registry:project:"}) {
    std::string p(prefix);
    if (origin.rfind(p, 0) == 0) return p.substr(0, p.size() - 1);
  }
  return origin;
}

// "prompt: 5000 bytes is over the limit of 4096 bytes (server.max_prompt_bytes)".
std::string TooLarge(const char* field, size_t size, size_t limit, const char* key) {
  return std::string(field) + ": " + std::to_string(size) + " bytes is over the limit of " +
         std::to_string(limit) + " bytes (server." + key + ")";
}

}  // namespace

int HttpStatusFor(Code code) {
  switch (code) {
    case Code::kOk:
      return 200;
    case Code::kInvalidArgument:
      return 400;
    case Code::kNotFound:
      return 404;
    case Code::kUnauthenticated:
      return 401;
    case Code::kPermissionDenied:
      return 403;
    case Code::kResourceExhausted:
      return 429;
    case Code::kUnavailable:
      return 503;
    case Code::kDeadlineExceeded:
      return 504;
    case Code::kFailedPrecondition:
      return 409;
    case Code::kQuotaExhausted:
      return ErrorCodeFactsOf(ErrorCode::kProviderQuotaExhausted).http_status;
    default:
      return 500;
  }
}

int HttpStatusForResult(const StructureResult& result) {
  if (result.status != pipeline::Outcome::kError) return 200;
  return ErrorCodeFactsOf(result.error_code).http_status;
}

http::HttpResponse LocalErrorFor(const std::string& target, int status, const std::string& code,
                                 const std::string& message) {
  if (openai::IsOpenAiRoute(target.substr(0, target.find('?')))) {
    return openai::LocalError(status, code, message);
  }
  return ErrorResponse(status, code, message);
}

Api::Api(Engine& engine, const ServerConfig& config, Metrics& metrics)
    : engine_(engine), config_(config), metrics_(metrics), keys_(config.keys) {
  if (config_.console.ui) console_ = std::make_unique<Console>(engine_, config_);
}

// Both answer 200 while the process can serve: a shared database that is down degrades every
// replica alike (inline schemas still work), so no replica is taken out for it; the reasons say
// what is wrong.
Json Api::HealthJson(bool ready) const {
  Json reasons = Json::MakeArray();
  Status store = EngineInternal::Schemas(engine_).StoreHealth();
  if (!store.ok()) {
    reasons.push_back(Json(store.message() +
                           " (schema lookups by name answer from each replica's last answer for a "
                           "bounded time, then 503; schema writes answer 503)"));
  }
  if (console_) {
    std::string records = console_->Problem();
    if (!records.empty()) reasons.push_back(Json(records));
  }
  Json j = Json::MakeObject();
  j.set("status", std::string(!reasons.as_array().empty() ? "degraded" : ready ? "ready" : "ok"));
  if (!reasons.as_array().empty()) j.set("reasons", std::move(reasons));
  return j;
}

void Api::Handle(HttpRequest request, Responder respond) {
  // Behind a proxy that keeps its path prefix (--ui-base /structure/), /structure/v1/... is
  // /v1/...; without the prefix the routes answer too.
  const std::string& base = config_.console.ui_base;
  if (base.size() > 1 && request.path.compare(0, base.size() - 1, base, 0, base.size() - 1) == 0 &&
      (request.path.size() == base.size() - 1 || request.path[base.size() - 1] == '/')) {
    request.path.erase(0, base.size() - 1);
    if (request.path.empty()) request.path = "/";
  }
  request.path = openai::WithoutTrailingSlash(request.path);
  const std::string& path = request.path;
  // HEAD arrives as GET (the server sends GET's headers without the body); messages and
  // metrics name what the client sent.
  const std::string method = request.head ? "HEAD" : request.method;
  std::string route = path;
  // Records the response under its route template, then sends it.
  auto send = [this, method, &route, &respond](HttpResponse r) {
    metrics_.RecordResponse(method, route, r.status);
    respond(std::move(r));
  };
  // GET routes take HEAD too (RFC 9110 9.3.2).
  auto only = [&](std::string allowed) {
    if (allowed.find("GET") != std::string::npos) allowed += ", HEAD";
    std::string message = method + " is not allowed on " + route + " (allowed: " + allowed + ")";
    HttpResponse r = openai::IsOpenAiRoute(path)
                         ? openai::LocalError(405, "method_not_allowed", message)
                         : ErrorResponse(405, "method_not_allowed", message);
    r.SetHeader("Allow", allowed);
    send(std::move(r));
  };

  const bool get = request.method == "GET";
  if (path == "/healthz" || path == "/readyz") {
    if (!get) return only("GET");
    return send(JsonResponse(200, ToJson(HealthJson(path == "/readyz"))));
  }
  if (path == "/metrics") {
    if (!get) return only("GET");
    HttpResponse r;
    r.status = 200;
    r.body = metrics_.Render() + RenderEngineStats(EngineInternal::Stats(engine_)) +
             (console_ ? console_->RenderMetrics() : std::string());
    r.SetHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
    return send(std::move(r));
  }
  if (path == "/v1/openapi.json") {
    if (!get) return only("GET");
    return send(JsonResponse(200, ToJson(OpenApiDocument())));
  }
  if (console_) {
    if (auto page = ConsoleFile(request, path)) {
      route = "/ui";
      return send(std::move(*page));
    }
  }
  const std::string kSchemas = "/v1/schemas";
  const std::string kConsole = "/v1/console/";
  bool is_console = console_ && path.rfind(kConsole, 0) == 0;
  bool is_structure = path == "/v1/structure";
  bool is_list = path == kSchemas || path == kSchemas + "/";
  bool is_named = !is_list && path.rfind(kSchemas + "/", 0) == 0;
  bool is_openai = openai::IsOpenAiRoute(path);
  if (!is_structure && !is_list && !is_named && !is_console && !is_openai) {
    route = "other";
    if (auto unserved = openai::UnservedOpenAiPath(method, path))
      return send(openai::LocalError(404, "unknown_url", *unserved));
    return send(ErrorResponse(404, "not_found", "no such endpoint: " + method + " " + path));
  }
  if (is_list) route = kSchemas;
  if (is_named) route = kSchemas + "/{name}";
  if (is_console) route = "/v1/console";

  // Authentication comes before method checks so an anonymous caller learns nothing more.
  auto who = keys_.Authenticate(request);
  if (!who.ok()) {
    HttpResponse r = is_openai ? openai::LocalError(401, "invalid_api_key", who.status().message())
                               : ErrorResponse(401, "unauthenticated", who.status().message());
    r.SetHeader("WWW-Authenticate", "Bearer");
    return send(std::move(r));
  }
  if (is_openai) {
    if (path == "/v1/models" || path == "/v1/models/") {
      if (!get) return only("GET");
      return send(Models(request, *who));
    }
    if (path == "/v1/responses") {
      if (request.method != "POST") return only("POST");
      return Responses(request, *who, [this, respond](HttpResponse r) {
        metrics_.RecordResponse("POST", "/v1/responses", r.status);
        respond(std::move(r));
      });
    }
    if (path != "/v1/chat/completions") {
      route = "/v1/models/{id}";
      if (!get) return only("GET");
      return send(Model(request, *who, path.substr(std::string("/v1/models/").size())));
    }
    if (request.method != "POST") return only("POST");
    return ChatCompletions(request, *who, [this, respond](HttpResponse r) {
      metrics_.RecordResponse("POST", "/v1/chat/completions", r.status);
      respond(std::move(r));
    });
  }
  if (is_structure) {
    if (request.method != "POST") return only("POST");
    // The answer comes later, from an engine thread; it records its own metrics.
    return Structure(request, *who, [this, respond](HttpResponse r) {
      metrics_.RecordResponse("POST", "/v1/structure", r.status);
      respond(std::move(r));
    });
  }
  if (is_list) {
    if (!get) return only("GET");
    return send(ListSchemas(request, *who));
  }
  if (is_console) return send(console_->Handle(request, *who, path.substr(kConsole.size())));
  std::string name = path.substr(kSchemas.size() + 1);
  if (size_t slash = name.find('/'); slash != std::string::npos) {
    std::string what = name.substr(slash + 1);
    name.resize(slash);
    if (what == "versions") {
      route = kSchemas + "/{name}/versions";
      if (!get) return only("GET");
      return send(SchemaVersions(request, *who, name));
    }
    if (what == "check") {
      route = kSchemas + "/{name}/check";
      if (method != "POST") return only("POST");
      return send(SchemaCheck(request, *who, name));
    }
    route = "other";
    return send(ErrorResponse(404, "not_found", "no such endpoint: " + method + " " + path));
  }
  if (!get && method != "PUT" && method != "DELETE") return only("GET, PUT, DELETE");
  send(SchemaByName(request, *who, name));
}

bool Api::Busy() const {
  return static_cast<size_t>(inflight_.load()) >= config_.limits.max_inflight;
}

void Api::Run(pipeline::StructureRequest request, const char* endpoint, ResultCallback done) {
  // What the console keeps of the request; its ring needs every call's re-asks, so the call is
  // traced, and the trace is answered only when the caller asked for it.
  bool wants_trace = request.trace;
  std::shared_ptr<pipeline::StructureRequest> seen;
  if (console_) {
    seen = std::make_shared<pipeline::StructureRequest>();
    seen->tenant = request.tenant;
    seen->project = request.project;
    seen->mode = request.mode;
    seen->schema_ref = request.schema_ref;
    if (console_->keep_prompts()) seen->prompt = request.prompt;
    if (console_->wants_trace()) request.trace = true;
  }
  metrics_.SetInflight(++inflight_);
  auto started = std::chrono::steady_clock::now();
  auto finished = [this, endpoint, done = std::move(done), started, seen,
                   wants_trace](pipeline::CallResult result) {
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    StructureResult for_metrics;
    for_metrics.status = result.status;
    for_metrics.error_code = result.error_code;
    for_metrics.schema_origin = MetricsOrigin(result.schema_origin);
    for_metrics.iterations = result.iterations;
    for_metrics.usage = result.usage;
    metrics_.RecordCall(for_metrics, seconds, endpoint);
    if (console_) console_->Record(*seen, result, seconds);
    if (!wants_trace) result.call_trace.reset();
    metrics_.SetInflight(--inflight_);
    done(pipeline::PublicResult(std::move(result)));
  };
  EngineInternal::Submit(engine_, std::move(request), std::move(finished));
}

void Api::Structure(const HttpRequest& request, const Principal& who, Responder respond) {
  const ServerLimits& limits = config_.limits;
  if (Busy()) {
    HttpResponse r = ErrorResponse(
        429, "busy",
        "the server has " + std::to_string(limits.max_inflight) + " calls under way; retry later");
    r.SetHeader("Retry-After", "1");
    return respond(std::move(r));
  }
  ParseOptions po;
  po.source = "body";
  auto body = ParseJson(request.body, po);
  if (!body.ok()) return respond(ErrorResponse(400, "bad_request", body.status().message()));
  if (!body->is_object()) {
    return respond(ErrorResponse(400, "bad_request", "the request must be a JSON object"));
  }
  // Size limits answer 413 before anything else looks at the content.
  if (const Json* p = body->find("prompt");
      p != nullptr && p->is_string() && p->as_string().size() > limits.max_prompt_bytes) {
    return respond(ErrorResponse(
        413, "too_large",
        TooLarge("prompt", p->as_string().size(), limits.max_prompt_bytes, "max_prompt_bytes")));
  }
  for (const char* field : {"schema", "schemaName", "schemaText"}) {
    const Json* s = body->find(field);
    if (s == nullptr) continue;
    size_t size = s->is_string() ? s->as_string().size() : JsonTextSize(*s);
    if (size > limits.max_schema_bytes) {
      return respond(ErrorResponse(
          413, "too_large", TooLarge(field, size, limits.max_schema_bytes, "max_schema_bytes")));
    }
  }
  if (const Json* loops = body->find("maxLoops"); loops != nullptr && loops->is_integral()) {
    int64_t n = loops->as_int();
    if (n < limits.min_loops || n > limits.max_loops) {
      return respond(
          ErrorResponse(400, "bad_request",
                        "maxLoops: must be an integer " + std::to_string(limits.min_loops) + ".." +
                            std::to_string(limits.max_loops) + " (was " + std::to_string(n) + ")"));
    }
  }
  // The tenant is the key's; a request may only repeat it.
  if (const Json* t = body->find("tenant")) {
    if (!t->is_string() || t->as_string() != who.tenant) {
      return respond(ErrorResponse(403, "forbidden", "tenant: must be the API key's own tenant"));
    }
  }
  std::string project;
  if (const Json* p = body->find("project")) {
    if (!p->is_string())
      return respond(ErrorResponse(400, "bad_request", "project: must be a string"));
    project = p->as_string();
  } else if (auto q = request.QueryParam("project")) {
    project = *q;
  }
  auto scope = Authorize(who, project);
  if (!scope.ok()) return respond(ScopeRefused(scope.status()));
  body->set("tenant", scope->tenant);
  if (scope->project.empty()) {
    body->erase("project");
  } else {
    body->set("project", scope->project);
  }
  pipeline::RequestLimits rl;
  rl.max_prompt_bytes = limits.max_prompt_bytes;
  rl.max_schema_bytes = limits.max_schema_bytes;
  rl.max_schema_depth = limits.max_schema_depth;
  auto parsed = pipeline::ParseRequest(*body, rl);
  if (!parsed.ok()) return respond(ErrorResponse(400, "bad_request", parsed.status().message()));

  Run(std::move(*parsed), "structure", [respond](StructureResult result) {
    int status = HttpStatusForResult(result);
    HttpResponse r = JsonResponse(status, ToJson(pipeline::ResultToJson(std::move(result))));
    if (r.status == 429) r.SetHeader("Retry-After", "1");
    respond(std::move(r));
  });
}

}  // namespace structure::server
