// Pure limiter logic for the provider pool: token buckets (requests/min, tokens/min with a
// short burst), concurrency with an adaptive cap learned from 429s, an endpoint pause, and
// capped exponential backoff with jitter. No clock reads and no randomness inside: callers
// pass `now` and a random number, so tests are deterministic.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>

#include "structure/status.h"

namespace structure::providers {

using SteadyClock = std::chrono::steady_clock;
using TimePoint = SteadyClock::time_point;
using Duration = SteadyClock::duration;

// A bucket refilled at rate_per_minute / 60 per second up to `burst_seconds` of budget. The
// level may go negative (debt) when a cost is corrected upwards after the fact.
class TokenBucket {
 public:
  TokenBucket() = default;  // unlimited
  // per_minute <= 0 means unlimited. The bucket starts full.
  TokenBucket(double per_minute, TimePoint now, double burst_seconds = 1.0);

  bool unlimited() const { return rate_per_sec_ <= 0; }
  double capacity() const { return capacity_; }
  // Earliest time at which `cost` can be taken (now when it can). A cost larger than the
  // capacity waits for a full bucket and then leaves a debt.
  TimePoint ReadyAt(double cost, TimePoint now);
  void Take(double cost, TimePoint now);
  // Adds back (or, negative, takes) an amount, capped at capacity.
  void Adjust(double amount, TimePoint now);
  double Level(TimePoint now);

 private:
  void Refill(TimePoint now);

  double rate_per_sec_ = 0;
  double capacity_ = 0;
  double level_ = 0;
  TimePoint last_{};
};

struct Limits {
  int max_concurrency = 64;
  double requests_per_minute = 0;  // 0 = not limited client-side
  double tokens_per_minute = 0;    // 0 = not limited client-side
  double burst_seconds = 1.0;      // bucket capacity in seconds of budget
  bool adaptive = true;            // halve the concurrency cap on 429, grow it back on success
  // Slots bulk work may not take, so an interactive call rarely waits for a slot at all.
  // Ignored when the cap is 1.
  int interactive_reserve = 1;
};

// Admission control for one endpoint + key. Not thread-safe (owned by one actor).
class Limiter {
 public:
  Limiter(const Limits& limits, TimePoint now);

  // kInvalidArgument when a request can never fit (more tokens than a whole minute allows).
  Status CheckFeasible(int64_t est_tokens) const;

  // When a request of `est_tokens` may start. `go` means now; otherwise `ready_at` is the
  // earliest time worth re-checking, or nullopt when only a completion can free a slot.
  struct Decision {
    bool go = false;
    std::optional<TimePoint> ready_at;
  };
  // Bulk requests leave `interactive_reserve` slots free.
  Decision Check(int64_t est_tokens, TimePoint now, bool bulk = false);

  void Acquire(int64_t est_tokens, TimePoint now);
  // One request finished. `actual_tokens` (from reported usage) corrects the estimate.
  void Release(int64_t est_tokens, std::optional<int64_t> actual_tokens, TimePoint now);

  // The endpoint said "slow down": no new request starts before `until`, and the adaptive
  // concurrency cap is halved.
  void OnRateLimited(TimePoint until);
  // A request succeeded: grow the adaptive cap by about one per round trip.
  void OnSuccess();
  // Pause without shrinking the cap (e.g. remaining-requests reached 0).
  void PauseUntil(TimePoint until);

  // Enforces `share` (0 < share <= 1) of the configured requests/min and tokens/min from now on,
  // starting from full buckets; 0 = the rates are enforced elsewhere (the shared store) and only
  // concurrency and pauses are checked here. CheckFeasible keeps using the configured limits.
  void SetRateShare(double share, TimePoint now);

  int in_flight() const { return in_flight_; }
  int concurrency_cap() const;
  TimePoint paused_until() const { return paused_until_; }

 private:
  Limits limits_;
  TokenBucket requests_;
  TokenBucket tokens_;
  int in_flight_ = 0;
  double adaptive_cap_;
  TimePoint paused_until_{};
};

struct BackoffPolicy {
  Duration initial = std::chrono::milliseconds(500);
  Duration max = std::chrono::seconds(30);
  double multiplier = 2.0;
};

// Delay before retry number `attempt` (1 = first retry): initial * multiplier^(attempt-1),
// capped at max, then jittered into [d/2, d] by `random01` in [0, 1).
Duration BackoffDelay(const BackoffPolicy& policy, int attempt, double random01);

}  // namespace structure::providers
