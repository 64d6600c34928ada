// Which request goes next: two FIFO lanes (interactive always before bulk), retries parked
// until their backoff ends, and per-request deadlines. Pure bookkeeping over ids; the pool
// actor owns the requests themselves. Not thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <unordered_map>
#include <utility>
#include <vector>

#include "providers/admission/rate_limit.h"

namespace structure::providers {

enum class QueueLane : uint8_t { kInteractive = 0, kBulk = 1 };

class DispatchQueue {
 public:
  static constexpr TimePoint kNoDeadline = TimePoint::max();

  // Tracks a new id at the back of its lane. `deadline` kNoDeadline = none.
  void Push(uint64_t id, QueueLane lane, TimePoint deadline = kNoDeadline);
  // Puts a tracked id (taken earlier) back at the front of its lane, e.g. after a 429.
  void PushFront(uint64_t id);
  // Parks a tracked id until `until`; it then re-enters at the front of its lane.
  void Delay(uint64_t id, TimePoint until);

  // The next id to dispatch (moving due parked ids first), without taking it.
  std::optional<uint64_t> Peek(TimePoint now);
  // Takes the id Peek returned; it stays tracked (for its deadline) until Forget.
  void Take(uint64_t id);
  // Stops tracking an id in any state; stale lane entries are skipped lazily.
  void Forget(uint64_t id);

  // Tracked ids whose deadline is <= now (queued, parked or taken); they stay tracked.
  std::vector<uint64_t> Expired(TimePoint now) const;
  // Earliest parked-retry end or deadline, if any: when the pool should look again.
  std::optional<TimePoint> NextEvent() const;

  size_t waiting() const { return waiting_; }  // queued + parked
  size_t tracked() const { return entries_.size(); }

 private:
  enum class State : uint8_t { kQueued, kParked, kTaken };
  struct Entry {
    QueueLane lane;
    State state;
    TimePoint deadline;
    TimePoint parked_until;
  };
  void MoveDue(TimePoint now);

  std::unordered_map<uint64_t, Entry> entries_;
  std::deque<uint64_t> lanes_[2];
  std::set<std::pair<TimePoint, uint64_t>> parked_;
  std::set<std::pair<TimePoint, uint64_t>> deadlines_;
  size_t waiting_ = 0;
};

}  // namespace structure::providers
