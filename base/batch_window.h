// Batching the hand-offs of an event loop that other threads feed (the HTTP server's loop, the
// curl I/O thread). Each time such a loop blocks and is woken it pays a context switch: 10-25 us
// of CPU on the 2-core virtual machines measured in docs/server.md, more than the work of one
// request. Under load a loop that wakes for every event spends more on waking than on working.
// A loop under load (a turn did two units of work or more: requests read, answers written,
// transfers started or finished; or it did one, less than a window after the last busy turn)
// sleeps for its window after the turn, so that its next turn takes all that arrived meanwhile
// in one wake-up. A loop that sees one unit now and then (a lone caller, a provider answering
// in seconds) never waits; under load each hand-off waits at most one window.
#pragma once

#include <chrono>
#include <cstddef>

namespace structure {

class BatchWindow {
 public:
  explicit BatchWindow(std::chrono::microseconds window) : window_(window) {}

  // Called after each turn of the loop with the units of work it did; sleeps for the window
  // when the loop is under load. A window of zero or less never sleeps.
  void AfterTurn(size_t units);

 private:
  using Clock = std::chrono::steady_clock;
  std::chrono::microseconds window_;
  Clock::time_point last_busy_{};
};

}  // namespace structure
