#include "providers/admission/dispatch_queue.h"

namespace structure::providers {

void DispatchQueue::Push(uint64_t id, QueueLane lane, TimePoint deadline) {
  auto [it, inserted] = entries_.emplace(id, Entry{lane, State::kQueued, deadline, {}});
  if (!inserted) return;
  lanes_[static_cast<int>(lane)].push_back(id);
  if (deadline != kNoDeadline) deadlines_.emplace(deadline, id);
  ++waiting_;
}

void DispatchQueue::PushFront(uint64_t id) {
  auto it = entries_.find(id);
  if (it == entries_.end() || it->second.state != State::kTaken) return;
  it->second.state = State::kQueued;
  lanes_[static_cast<int>(it->second.lane)].push_front(id);
  ++waiting_;
}

void DispatchQueue::Delay(uint64_t id, TimePoint until) {
  auto it = entries_.find(id);
  if (it == entries_.end() || it->second.state != State::kTaken) return;
  it->second.state = State::kParked;
  it->second.parked_until = until;
  parked_.emplace(until, id);
  ++waiting_;
}

void DispatchQueue::MoveDue(TimePoint now) {
  // Due retries go to the front, earliest first, so they keep their place ahead of newcomers.
  std::vector<uint64_t> due;
  while (!parked_.empty() && parked_.begin()->first <= now) {
    due.push_back(parked_.begin()->second);
    parked_.erase(parked_.begin());
  }
  for (auto it = due.rbegin(); it != due.rend(); ++it) {
    auto e = entries_.find(*it);
    if (e == entries_.end() || e->second.state != State::kParked) continue;
    e->second.state = State::kQueued;
    lanes_[static_cast<int>(e->second.lane)].push_front(*it);
  }
}

std::optional<uint64_t> DispatchQueue::Peek(TimePoint now) {
  MoveDue(now);
  for (auto& lane : lanes_) {
    while (!lane.empty()) {
      auto it = entries_.find(lane.front());
      if (it != entries_.end() && it->second.state == State::kQueued) return lane.front();
      lane.pop_front();  // forgotten or already taken: a stale entry
    }
  }
  return std::nullopt;
}

void DispatchQueue::Take(uint64_t id) {
  auto it = entries_.find(id);
  if (it == entries_.end() || it->second.state != State::kQueued) return;
  auto& lane = lanes_[static_cast<int>(it->second.lane)];
  if (!lane.empty() && lane.front() == id) lane.pop_front();
  it->second.state = State::kTaken;
  --waiting_;
}

void DispatchQueue::Forget(uint64_t id) {
  auto it = entries_.find(id);
  if (it == entries_.end()) return;
  if (it->second.state != State::kTaken) --waiting_;
  if (it->second.state == State::kParked) parked_.erase({it->second.parked_until, id});
  if (it->second.deadline != kNoDeadline) deadlines_.erase({it->second.deadline, id});
  entries_.erase(it);
}

std::vector<uint64_t> DispatchQueue::Expired(TimePoint now) const {
  std::vector<uint64_t> out;
  for (auto it = deadlines_.begin(); it != deadlines_.end() && it->first <= now; ++it) {
    out.push_back(it->second);
  }
  return out;
}

std::optional<TimePoint> DispatchQueue::NextEvent() const {
  std::optional<TimePoint> t;
  if (!parked_.empty()) t = parked_.begin()->first;
  if (!deadlines_.empty() && (!t || deadlines_.begin()->first < *t)) {
    t = deadlines_.begin()->first;
  }
  return t;
}

}  // namespace structure::providers
