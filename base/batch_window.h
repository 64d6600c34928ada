// Batching the hand-offs of an event loop that other threads feed (the HTTP server's loop, the
// curl I/O thread). Each time such a loop blocks and is woken it pays a context switch: 10-25 us
// of CPU on the 2-core virtual machines measured in docs/server.md, more than the work of one
// request. Under load a loop that wakes for every event spends more on waking than on working.
//
// A loop is under load when at least two pieces of work are open after its turn (requests read
// and not yet answered, transfers started and not finished) and the turn did two units of work
// (requests read, answers written, transfers started or finished) or one, less than a window
// after the last busy turn. Only then does it sleep after the turn, so that its next turn takes
// all that arrived meanwhile in one wake-up. A lone caller, one request at a time, never waits
// (docs/performance.md: the latency added when idle). The sleep is the configured window or an
// eighth of the open work's observed latency (a moving average the loop feeds), whichever is
// shorter: a wait never adds more than an eighth to the latency it batches.
#pragma once

#include <chrono>
#include <cstddef>

namespace structure {

class BatchWindow {
 public:
  using Clock = std::chrono::steady_clock;

  explicit BatchWindow(std::chrono::microseconds window) : window_(window) {}

  // Called after each turn of the loop with the units of work it did and the pieces of work
  // open now; sleeps when the loop is under load. A window of zero or less never sleeps.
  void AfterTurn(size_t units, size_t open);

  // One piece of work's latency (request read to answer written, transfer start to finish).
  void Observe(Clock::duration latency);

  // AfterTurn's decision, without sleeping: how long to sleep after a turn that did `units`
  // with `open` pieces of work open, at `now` (zero: not under load). Records a busy turn.
  std::chrono::microseconds Decide(size_t units, size_t open, Clock::time_point now);

  // The sleep taken under load: the window, or an eighth of the observed latency if shorter.
  std::chrono::microseconds Wait() const;

 private:
  std::chrono::microseconds window_;
  Clock::time_point last_busy_{};
  double latency_us_ = -1;  // moving average; negative until the first sample
};

}  // namespace structure
