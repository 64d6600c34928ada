// The console's JSON endpoints under /v1/console/ (docs/console.md), answered for an
// authenticated key and scoped to its tenant exactly like the rest of the API:
//   GET /v1/console/info         the key's tenant and projects, models, prices, limits, defaults
//   GET /v1/console/stats        per-schema counts of this tenant's calls since the start
//   GET /v1/console/calls        this tenant's recent calls, newest first: every replica's
//                                from the database when it is PostgreSQL, else this server's ring
//   GET /v1/console/calls/{id}   one of them, with its prompt and result when prompts are kept
// Nothing here carries a provider key, a key variable's name, a base URL or another tenant's
// data.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include "engine/engine_internal.h"
#include "http/http_message.h"
#include "pipeline/call_stats.h"
#include "registry/call_record_writer.h"
#include "server/auth.h"
#include "server/console/recent_calls.h"
#include "server/server_config.h"

namespace structure::server {

class Console {
 public:
  // `engine` must outlive the console.
  Console(Engine& engine, const ServerConfig& config);

  // A finished POST /v1/structure call: counted for its tenant and kept in the ring (with its
  // prompt and result JSON, trace included, when prompts are kept). `request` needs only its
  // scope, schema mode and reference, and the prompt.
  void Record(const pipeline::StructureRequest& request, const pipeline::CallResult& result,
              double seconds);

  // Whether the ring needs each call's trace (for the re-asks' pointers and keywords).
  bool wants_trace() const { return recent_.capacity() > 0; }
  bool keep_prompts() const { return keep_prompts_; }

  // The call records' lines for GET /metrics ("" without a shared database).
  std::string RenderMetrics() const;
  // What is wrong with the call records now (for /healthz and /readyz); empty when nothing.
  std::string Problem() const;

  // Answers GET /v1/console/<sub> for `who`.
  http::HttpResponse Handle(const http::HttpRequest& request, const Principal& who,
                            std::string_view sub);

 private:
  http::HttpResponse Info(const Principal& who) const;
  http::HttpResponse Stats(const Principal& who) const;
  http::HttpResponse Calls(const http::HttpRequest& request, const Principal& who) const;
  http::HttpResponse Call(const Principal& who, std::string_view id) const;

  Engine& engine_;
  const ServerConfig& config_;
  const bool keep_prompts_;
  RecentCalls recent_;
  // With a PostgreSQL database: every replica's calls, read by every replica's console (the
  // ring above answers when the database does not).
  std::shared_ptr<registry::CallRecordStore> records_;
  std::unique_ptr<registry::CallRecordWriter> writer_;
  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<pipeline::CallStats>> by_tenant_;  // guarded by mu_
};

// Whether `who` may see a call of (tenant, project): its own tenant, and a project its key may
// use (the tenant level always).
bool Visible(const Principal& who, const std::string& tenant, const std::string& project);

}  // namespace structure::server
