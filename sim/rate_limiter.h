// The simulator's enforced limits: requests per minute and tokens per minute, as token buckets
// that refill continuously (capacity = the per-minute limit), like the providers' limiters.
#pragma once

#include <chrono>
#include <cstdint>

#include "sim/dialect.h"

namespace structure::sim {

class RateLimiter {
 public:
  using Clock = std::chrono::steady_clock;

  // 0 disables a limit.
  RateLimiter(int64_t rpm, int64_t tpm);

  bool enabled() const { return rpm_ > 0 || tpm_ > 0; }

  // Takes one request and `tokens` from the buckets when both fit (returns true); otherwise
  // takes nothing and returns false. *snapshot describes the state for headers either way.
  // Not thread-safe; the simulator serialises calls.
  bool Admit(int64_t tokens, Clock::time_point now, LimitSnapshot* snapshot);

 private:
  void Refill(Clock::time_point now);

  int64_t rpm_;
  int64_t tpm_;
  double requests_;
  double tokens_;
  Clock::time_point last_;
};

}  // namespace structure::sim
