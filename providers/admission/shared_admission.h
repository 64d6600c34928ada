// A pool's side of the shared limits: whether the shared store rules its rates or the local
// fallback does, the one acquire in flight (which requests it asked for), token corrections
// waiting to be sent, and when the store said the next request fits. Pure bookkeeping over
// request ids; the pool actor sends the scripts (providers/admission/shared_limit.h). Not
// thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "providers/admission/rate_limit.h"
#include "providers/admission/shared_limit.h"

namespace structure::providers {

class SharedAdmission {
 public:
  // At most this many requests per acquire.
  static constexpr size_t kMaxAsk = 128;

  // True: the store rules (the state a pool starts in when it has a store).
  bool active() const { return active_; }
  bool asking() const { return asking_; }
  // An acquire may go out now: the store rules, none is in flight, and the store's last "wait"
  // (if any) has passed.
  bool CanAsk(TimePoint now) const;
  // When the store said to ask again (meaningful while it is in the future).
  std::optional<TimePoint> retry_at() const { return retry_at_; }

  // The acquire for `asked` (id, estimated tokens, in dispatch order) went out; returns the
  // refund to send with it (taken out of the pending corrections).
  int64_t StartAsk(std::vector<std::pair<uint64_t, int64_t>> asked);
  // Estimate minus reported usage of a request admitted by the store (negative: it used more).
  void AddRefund(int64_t tokens) { refund_ += tokens; }
  int64_t pending_refund() const { return refund_; }

  struct Answer {
    std::vector<std::pair<uint64_t, int64_t>> go;    // may start now, in order
    std::vector<std::pair<uint64_t, int64_t>> back;  // return to the front of their lane, in order
  };
  // The acquire's reply: the first `granted` go, the rest go back and nothing is asked before
  // now + wait.
  Answer OnGrant(const SharedGrant& grant, TimePoint now);
  // The store could not be reached: the local fallback rules from now on, everything asked goes
  // back, and the pending corrections are dropped (they belonged to the store's cells).
  Answer OnStoreDown();
  // The store answers again: it rules from now on.
  void OnStoreUp();

 private:
  bool active_ = true;
  bool asking_ = false;
  std::vector<std::pair<uint64_t, int64_t>> asked_;
  int64_t refund_ = 0;
  std::optional<TimePoint> retry_at_;
};

}  // namespace structure::providers
