#include "server/api.h"

#include <chrono>

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
    default:
      return 500;
  }
}

int HttpStatusForResult(const StructureResult& result) {
  if (result.status != pipeline::Outcome::kError) return 200;
  const std::string& c = result.error_code;
  if (c == "bad_request" || c == "bad_schema") return 400;
  if (c == "unknown_schema") return 404;
  if (c == "provider_rate_limited") return 429;
  if (c == "provider_auth" || c == "provider_unavailable" || c == "provider_rejected_request") {
    return 502;
  }
  if (c == "deadline_exceeded") return 504;
  if (c == "cancelled") return 503;
  if (c == "refusal" || c == "safety_block" || c == "no_final_answer") return 422;
  return 500;
}

Api::Api(Engine& engine, const ServerConfig& config, Metrics& metrics)
    : engine_(engine), config_(config), metrics_(metrics), keys_(config.keys) {}

void Api::Handle(HttpRequest request, Responder respond) {
  const std::string& path = request.path;
  const std::string& method = request.method;
  std::string route = path;
  // Records the response under its route template, then sends it.
  auto send = [this, method, &route, &respond](HttpResponse r) {
    metrics_.RecordResponse(method, route, r.status);
    respond(std::move(r));
  };
  auto only = [&](const char* allowed) {
    HttpResponse r =
        ErrorResponse(405, "method_not_allowed",
                      method + " is not allowed on " + route + " (allowed: " + allowed + ")");
    r.SetHeader("Allow", allowed);
    send(std::move(r));
  };

  if (path == "/healthz") {
    if (method != "GET") return only("GET");
    return send(JsonResponse(200, R"({"status":"ok"})"));
  }
  if (path == "/metrics") {
    if (method != "GET") return only("GET");
    HttpResponse r;
    r.status = 200;
    r.body = metrics_.Render() + RenderEngineStats(engine_.stats());
    r.SetHeader("Content-Type", "text/plain; version=0.0.4; charset=utf-8");
    return send(std::move(r));
  }
  if (path == "/v1/openapi.json") {
    if (method != "GET") return only("GET");
    return send(JsonResponse(200, ToJson(OpenApiDocument())));
  }
  const std::string kSchemas = "/v1/schemas";
  bool is_structure = path == "/v1/structure";
  bool is_list = path == kSchemas || path == kSchemas + "/";
  bool is_named = !is_list && path.rfind(kSchemas + "/", 0) == 0;
  if (!is_structure && !is_list && !is_named) {
    route = "other";
    return send(ErrorResponse(404, "not_found", "no such endpoint: " + method + " " + path));
  }
  if (is_list) route = kSchemas;
  if (is_named) route = kSchemas + "/{name}";

  // Authentication comes before method checks so an anonymous caller learns nothing more.
  auto who = keys_.Authenticate(request);
  if (!who.ok()) {
    HttpResponse r = ErrorResponse(401, "unauthenticated", who.status().message());
    r.SetHeader("WWW-Authenticate", "Bearer");
    return send(std::move(r));
  }
  if (is_structure) {
    if (method != "POST") return only("POST");
    // The answer comes later, from an engine thread; it records its own metrics.
    return Structure(request, *who, [this, respond](HttpResponse r) {
      metrics_.RecordResponse("POST", "/v1/structure", r.status);
      respond(std::move(r));
    });
  }
  if (is_list) {
    if (method != "GET") return only("GET");
    return send(ListSchemas(request, *who));
  }
  if (method != "GET" && method != "PUT" && method != "DELETE") return only("GET, PUT, DELETE");
  send(SchemaByName(request, *who, path.substr(kSchemas.size() + 1)));
}

void Api::Structure(const HttpRequest& request, const Principal& who, Responder respond) {
  const ServerLimits& limits = config_.limits;
  if (static_cast<size_t>(inflight_.load()) >= limits.max_inflight) {
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
    size_t size = s->is_string() ? s->as_string().size() : ToJson(*s).size();
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
  if (!scope.ok()) return respond(ErrorResponse(403, "forbidden", scope.status().message()));
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

  metrics_.SetInflight(++inflight_);
  auto started = std::chrono::steady_clock::now();
  engine_.Submit(std::move(*parsed), [this, respond, started](StructureResult result) {
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    StructureResult for_metrics;
    for_metrics.status = result.status;
    for_metrics.error_code = result.error_code;
    for_metrics.schema_origin = MetricsOrigin(result.schema_origin);
    for_metrics.iterations = result.iterations;
    for_metrics.usage = result.usage;
    metrics_.RecordCall(for_metrics, seconds);
    HttpResponse r =
        JsonResponse(HttpStatusForResult(result), ToJson(pipeline::ResultToJson(result)));
    if (r.status == 429) r.SetHeader("Retry-After", "1");
    metrics_.SetInflight(--inflight_);
    respond(std::move(r));
  });
}

}  // namespace structure::server
