// Simulator: decides the answer to one provider request (auth, provider checks, scenario rule
// or generated object, content and transport faults, enforced rate limits, latency) and renders
// it in the provider's wire format. Thread-safe; holds no sockets (see SimServer).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include "http/http_server.h"
#include "sim/dialect.h"
#include "sim/latency.h"
#include "sim/prompt_cache.h"
#include "sim/rate_limiter.h"
#include "sim/request_log.h"
#include "sim/rng.h"
#include "sim/scenario.h"
#include "sim/sim_batches.h"
#include "sim/stats.h"

namespace structure::sim {

struct SimOptions {
  Scenario scenario;  // rules, keys, fault rates and limits (flags already merged in)
  Latency latency;    // default answer latency
  uint64_t seed = 0;
  BatchOptions batch;  // provider batch endpoints: completion delay, faults, caps
  std::shared_ptr<RequestLog> request_log;  // --record-requests: every provider request received
};

class Simulator {
 public:
  explicit Simulator(SimOptions options);
  ~Simulator();

  // The response to a request and how long to hold it before sending.
  struct Outcome {
    http::HttpResponse response;
    int delay_ms = 0;
  };
  Outcome Decide(const http::HttpRequest& request);

  // Schedules fn after a delay without blocking (HttpServer::After in production).
  using Scheduler = std::function<void(std::chrono::milliseconds, std::function<void()>)>;
  // Decide, then answer through respond, after the outcome's delay.
  void Handle(http::HttpRequest request, http::Responder respond, const Scheduler& after);

  // The answer to one request inside a provider batch: the same parsing, schema checks and
  // scenario or generated answer (with the same seed) as the live request with this path and
  // body, without auth, rate limits, transport faults or latency. The status and body are those
  // the live request would get; a scripted reset becomes a 500.
  http::HttpResponse AnswerBatchItem(Provider provider, const http::HttpRequest& request);
  const Dialect& dialect(Provider provider) const;
  const KeyPolicy& keys() const { return options_.scenario.keys; }

  Stats& stats() { return stats_; }
  // Optional source of the open-connection count reported in /stats.
  void set_connection_counter(std::function<size_t()> counter) {
    connections_ = std::move(counter);
  }

 private:
  // A parsed request and the answer decided for it, before rate limits and transport faults.
  struct Composed {
    ChatRequest request;
    Answer answer;
    Usage usage;
    uint64_t id_seed;
    Rng rng;
  };
  // Parse, schema checks and the scenario or generated answer; an Outcome when the request is
  // refused (400/404).
  std::variant<Composed, Outcome> Compose(const Dialect& dialect, const http::HttpRequest& request);
  Outcome Serve(const Dialect& dialect, const http::HttpRequest& request);
  uint64_t RequestSeed(const http::HttpRequest& request);
  Outcome Finish(int status, http::HttpResponse response, int delay_ms);
  std::vector<std::string> CheckSchema(const CheckedSchema& check);

  const SimOptions options_;
  std::vector<std::unique_ptr<Dialect>> dialects_;
  Stats stats_;
  PromptCache prompt_cache_;
  std::function<size_t()> connections_;
  std::mutex mu_;                      // guards limiters_, seen_ and check_cache_
  std::vector<RateLimiter> limiters_;  // one per dialect, same order
  std::unordered_map<uint64_t, uint32_t> seen_;
  std::unordered_map<uint64_t, std::vector<std::string>> check_cache_;
  std::unique_ptr<SimBatches> batches_;
};

}  // namespace structure::sim
