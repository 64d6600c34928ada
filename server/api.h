// The HTTP API of `structure serve` (docs/server.md): routes, authentication, limits and
// metrics around an Engine. Handle() is the HttpServer handler; it never blocks on a provider
// (structure calls answer from an engine thread) and never throws.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>

#include "engine/engine.h"
#include "http/http_message.h"
#include "http/http_server.h"
#include "server/auth.h"
#include "server/metrics.h"
#include "server/server_config.h"

namespace structure::server {

class Api {
 public:
  // `engine` and `metrics` must outlive every call of Handle and every answer under way.
  Api(Engine& engine, const ServerConfig& config, Metrics& metrics);

  void Handle(http::HttpRequest request, http::Responder respond);

  int64_t inflight() const { return inflight_.load(); }

 private:
  // Each returns the route template used as the metrics label.
  void Structure(const http::HttpRequest& request, const Principal& who, http::Responder respond);
  http::HttpResponse ListSchemas(const http::HttpRequest& request, const Principal& who);
  http::HttpResponse SchemaByName(const http::HttpRequest& request, const Principal& who,
                                  const std::string& name);

  Engine& engine_;
  const ServerConfig config_;
  Metrics& metrics_;
  KeyRing keys_;
  std::atomic<int64_t> inflight_{0};
};

// {"status":"error","code":code,"errors":[message]} with the given HTTP status (the HTTP layer's
// own 413/431/400 answers use the same shape).
using http::ErrorResponse;

// The HTTP status for a Status code (kInvalidArgument 400, kNotFound 404, 401, 403, 429, ...).
int HttpStatusFor(Code code);

// The HTTP status for a structure result: 200 for ok/need-more-input/stale, else by error code.
int HttpStatusForResult(const pipeline::StructureResult& result);

}  // namespace structure::server
