// Counters and histograms of the HTTP API, rendered in the Prometheus text format (0.0.4).
// Everything is computed from what a StructureResult and the HTTP layer know; see
// docs/server.md for the metric names.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "pipeline/call_stats.h"
#include "pipeline/result.h"

namespace structure::server {

// The engine's metrics per schema and per provider (EngineInternal::Stats) in the same format.
std::string RenderEngineStats(const pipeline::StatsSnapshot& stats);

// What the HTTP layer sees. Thread-safe.
class Metrics {
 public:
  Metrics();

  // One finished structure call of the HTTP API, by the endpoint it came through ("structure":
  // POST /v1/structure, "chat_completions": POST /v1/chat/completions, "responses": POST
  // /v1/responses).
  void RecordCall(const pipeline::StructureResult& result, double seconds,
                  const std::string& endpoint = "structure");
  // Every HTTP response, by route template ("/v1/structure", "/v1/schemas/{name}", ...).
  void RecordResponse(const std::string& method, const std::string& route, int status);
  void SetInflight(int64_t n);

  std::string Render() const;

 private:
  mutable std::mutex mu_;
  // endpoint, status, schemaOrigin
  std::map<std::tuple<std::string, std::string, std::string>, uint64_t> calls_;
  std::map<std::string, uint64_t> error_codes_;
  std::map<std::tuple<std::string, std::string, int>, uint64_t> responses_;
  pipeline::Histogram iterations_;
  pipeline::Histogram call_seconds_;
  uint64_t input_tokens_ = 0;
  uint64_t output_tokens_ = 0;
  uint64_t provider_rate_limited_ = 0;
  int64_t inflight_ = 0;
};

}  // namespace structure::server
