// The HTTP API of `structure serve` (docs/server.md): routes, authentication, limits and
// metrics around an Engine. Handle() is the HttpServer handler; it never blocks on a provider
// (structure calls answer from an engine thread) and never throws.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>

#include "engine/engine_internal.h"
#include "http/http_message.h"
#include "http/http_server.h"
#include "registry/registered_schema.h"
#include "server/auth.h"
#include "server/console/console_api.h"
#include "server/metrics.h"
#include "server/openai/openai_error.h"
#include "server/server_config.h"

namespace structure::server {

struct OpenAiShape;  // server/openai/chat_route.cc

class Api {
 public:
  // `engine` and `metrics` must outlive every call of Handle and every answer under way.
  Api(Engine& engine, const ServerConfig& config, Metrics& metrics);

  void Handle(http::HttpRequest request, http::Responder respond);

  int64_t inflight() const { return inflight_.load(); }

  // Runs fn after delay on the server's event loop (HttpServer::After): the keep-alive comments
  // of streamed answers. Set once, before serving; without it streams send none.
  using Timer = std::function<void(std::chrono::milliseconds, std::function<void()>)>;
  void SetTimer(Timer timer) { timer_ = std::move(timer); }

 private:
  void Structure(const http::HttpRequest& request, const Principal& who, http::Responder respond);
  // POST /v1/chat/completions, POST /v1/responses and GET /v1/models
  // (server/openai/chat_route.cc).
  void ChatCompletions(const http::HttpRequest& request, const Principal& who,
                       http::Responder respond);
  void Responses(const http::HttpRequest& request, const Principal& who, http::Responder respond);
  // Either of the two: admission (max_inflight), the body read as `shape` reads it, the key's
  // scope and the model it names, then the call, answered as `shape` writes it.
  void OpenAi(const http::HttpRequest& request, const Principal& who, http::Responder respond,
              const OpenAiShape& shape);
  // /healthz and /readyz: {"status":"ok"|"ready"} or {"status":"degraded","reasons":[...]}.
  Json HealthJson(bool ready) const;
  // GET /v1/models: the configuration's models and the registry schemas of the key's tenant
  // (and the ?project= it may use) as schema:NAME.
  http::HttpResponse Models(const http::HttpRequest& request, const Principal& who) const;
  // GET /v1/models/{id}, id as sent: resolved as a request's `model` is.
  http::HttpResponse Model(const http::HttpRequest& request, const Principal& who,
                           const std::string& id) const;
  // A schema model ("schema:invoice@1.2") in `scope`: the schema's registry origin, or the 4xx.
  std::variant<std::string, openai::ApiError> SchemaModel(const std::string& model,
                                                          const registry::Scope& scope) const;
  // Whether another call may start now (fewer than max_inflight under way).
  bool Busy() const;
  // Runs `request` on the engine, counted under `endpoint` ("structure", "chat_completions",
  // "responses") in the metrics and in the calls under way; `done` runs once on an engine thread.
  void Run(pipeline::StructureRequest request, const char* endpoint, ResultCallback done);
  http::HttpResponse ListSchemas(const http::HttpRequest& request, const Principal& who);
  http::HttpResponse SchemaByName(const http::HttpRequest& request, const Principal& who,
                                  const std::string& name);
  // GET /v1/schemas/{name}/versions, POST /v1/schemas/{name}/check.
  http::HttpResponse SchemaVersions(const http::HttpRequest& request, const Principal& who,
                                    const std::string& name);
  http::HttpResponse SchemaCheck(const http::HttpRequest& request, const Principal& who,
                                 const std::string& name);

  Engine& engine_;
  const ServerConfig config_;
  Metrics& metrics_;
  KeyRing keys_;
  std::unique_ptr<Console> console_;  // null with [server] ui = false
  std::atomic<int64_t> inflight_{0};
  Timer timer_;
};

// The answer the HTTP layer gives itself (413, 431, 400) for `target`: the OpenAI error shape on
// the OpenAI-compatible routes, ErrorResponse elsewhere.
http::HttpResponse LocalErrorFor(const std::string& target, int status, const std::string& code,
                                 const std::string& message);

// {"status":"error","code":code,"errors":[message]} with the given HTTP status (the HTTP layer's
// own 413/431/400 answers use the same shape).
using http::ErrorResponse;

// The HTTP status for a Status code (kInvalidArgument 400, kNotFound 404, 401, 403, 429, ...).
int HttpStatusFor(Code code);

// The HTTP status for a structure result: 200 for ok/need-more-input/stale, else by error code.
int HttpStatusForResult(const pipeline::StructureResult& result);

}  // namespace structure::server
