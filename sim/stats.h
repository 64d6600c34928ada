// Counters the simulator exposes on GET /stats, so tests and benchmarks can assert what
// happened: requests per endpoint, statuses, enforced 429s, injected faults, scenario hits.
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <string>

#include "base/json.h"

namespace structure::sim {

class Stats {
 public:
  // All methods are thread-safe.
  void CountRequest(const std::string& endpoint);
  void CountStatus(int status);
  void CountRateLimited();
  void CountFault(const std::string& fault);
  void CountRule(const std::string& rule);
  void CountGenerated();
  void CountTokens(int64_t input, int64_t output);
  void CountCacheTokens(int64_t read, int64_t written);
  void AddInFlight(int delta);
  void CountBatch(int64_t requests);  // a provider batch created with this many requests
  void CountBatchDownload();          // a batch's results read (file content, results, done op)
  void Reset();

  // {"requests":{"total":N,"openai":N,...},"responses":{"200":N,...},"rate_limited":N,
  //  "faults":{"http429":N,...},"rules":{"name":N},"generated":N,"tokens":{"input","output"},
  //  "in_flight":N,"batches":{"created":N,"requests":N,"results_downloads":N}}
  //  "faults":{"http429":N,...},"rules":{"name":N},"generated":N,
  //  "tokens":{"input","output","cached_input","cache_write"},
  //  "in_flight":N}
  Json ToJson() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, int64_t> requests_;
  std::map<std::string, int64_t> responses_;
  std::map<std::string, int64_t> faults_;
  std::map<std::string, int64_t> rules_;
  int64_t total_ = 0;
  int64_t rate_limited_ = 0;
  int64_t generated_ = 0;
  int64_t input_tokens_ = 0;
  int64_t output_tokens_ = 0;
  int64_t cached_tokens_ = 0;
  int64_t cache_write_tokens_ = 0;
  int64_t in_flight_ = 0;
  int64_t batches_created_ = 0;
  int64_t batch_requests_ = 0;
  int64_t batch_downloads_ = 0;
};

}  // namespace structure::sim
