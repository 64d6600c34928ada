#include "providers/admission/rate_limit.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace structure::providers {
namespace {

Duration Seconds(double s) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(s));
}

}  // namespace

TokenBucket::TokenBucket(double per_minute, TimePoint now, double burst_seconds) {
  if (per_minute <= 0) return;
  rate_per_sec_ = per_minute / 60.0;
  // Less than one unit of capacity would never admit a unit request.
  capacity_ = std::max(1.0, rate_per_sec_ * std::max(burst_seconds, 0.001));
  level_ = capacity_;
  last_ = now;
}

void TokenBucket::Refill(TimePoint now) {
  if (now <= last_) return;
  double dt = std::chrono::duration<double>(now - last_).count();
  level_ = std::min(capacity_, level_ + dt * rate_per_sec_);
  last_ = now;
}

TimePoint TokenBucket::ReadyAt(double cost, TimePoint now) {
  if (unlimited()) return now;
  Refill(now);
  double need = std::min(cost, capacity_);
  if (level_ >= need) return now;
  // Round up by a microsecond so that a re-check at ready_at always succeeds.
  return now + Seconds((need - level_) / rate_per_sec_) + std::chrono::microseconds(1);
}

void TokenBucket::Take(double cost, TimePoint now) {
  if (unlimited()) return;
  Refill(now);
  level_ -= cost;
}

void TokenBucket::Adjust(double amount, TimePoint now) {
  if (unlimited()) return;
  Refill(now);
  level_ = std::min(capacity_, level_ + amount);
}

double TokenBucket::Level(TimePoint now) {
  Refill(now);
  return level_;
}

Limiter::Limiter(const Limits& limits, TimePoint now)
    : limits_(limits),
      requests_(limits.requests_per_minute, now, limits.burst_seconds),
      tokens_(limits.tokens_per_minute, now, limits.burst_seconds),
      adaptive_cap_(std::max(1, limits.max_concurrency)) {}

namespace {

Status CheckFeasibleImpl(double tpm, int64_t est) {
  if (tpm > 0 && static_cast<double>(est) > tpm) {
    return InvalidArgument("request needs about " + std::to_string(est) +
                           " tokens, more than the endpoint's " +
                           std::to_string(static_cast<int64_t>(tpm)) + " tokens/min");
  }
  return Status::Ok();
}

}  // namespace

Status Limiter::CheckFeasible(int64_t est_tokens) const {
  return CheckFeasibleImpl(limits_.tokens_per_minute, est_tokens);
}

int Limiter::concurrency_cap() const {
  int hard = std::max(1, limits_.max_concurrency);
  if (!limits_.adaptive) return hard;
  return std::clamp(static_cast<int>(adaptive_cap_), 1, hard);
}

Limiter::Decision Limiter::Check(int64_t est_tokens, TimePoint now, bool bulk) {
  Decision d;
  if (now < paused_until_) {
    d.ready_at = paused_until_;
    return d;
  }
  int cap = concurrency_cap();
  if (bulk && cap > 1) cap = std::max(1, cap - std::max(0, limits_.interactive_reserve));
  if (in_flight_ >= cap) return d;  // a completion will wake us
  TimePoint ready =
      std::max(requests_.ReadyAt(1, now), tokens_.ReadyAt(static_cast<double>(est_tokens), now));
  if (ready > now) {
    d.ready_at = ready;
    return d;
  }
  d.go = true;
  return d;
}

void Limiter::Acquire(int64_t est_tokens, TimePoint now) {
  ++in_flight_;
  requests_.Take(1, now);
  tokens_.Take(static_cast<double>(est_tokens), now);
}

void Limiter::Release(int64_t est_tokens, std::optional<int64_t> actual_tokens, TimePoint now) {
  if (in_flight_ > 0) --in_flight_;
  if (actual_tokens) tokens_.Adjust(static_cast<double>(est_tokens - *actual_tokens), now);
}

void Limiter::OnRateLimited(TimePoint until) {
  PauseUntil(until);
  if (limits_.adaptive) {
    adaptive_cap_ = std::max(1.0, std::min(adaptive_cap_, static_cast<double>(in_flight_)) / 2);
  }
}

void Limiter::OnSuccess() {
  if (!limits_.adaptive) return;
  double hard = std::max(1, limits_.max_concurrency);
  adaptive_cap_ = std::min(hard, adaptive_cap_ + 1.0 / std::max(1.0, adaptive_cap_));
}

void Limiter::PauseUntil(TimePoint until) { paused_until_ = std::max(paused_until_, until); }

void Limiter::SetRateShare(double share, TimePoint now) {
  if (share <= 0) {
    requests_ = TokenBucket();
    tokens_ = TokenBucket();
    return;
  }
  share = std::min(share, 1.0);
  requests_ = TokenBucket(limits_.requests_per_minute * share, now, limits_.burst_seconds);
  tokens_ = TokenBucket(limits_.tokens_per_minute * share, now, limits_.burst_seconds);
}

Duration BackoffDelay(const BackoffPolicy& policy, int attempt, double random01) {
  double base = std::chrono::duration<double>(policy.initial).count() *
                std::pow(policy.multiplier, std::max(0, attempt - 1));
  double cap = std::chrono::duration<double>(policy.max).count();
  double d = std::min(base, cap);
  random01 = std::clamp(random01, 0.0, 1.0);
  return Seconds(d / 2 + d / 2 * random01);
}

}  // namespace structure::providers
