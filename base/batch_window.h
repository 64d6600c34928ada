// Batching the hand-offs of an event loop that other threads feed (the HTTP server's loop, the
// curl I/O thread). Each time such a loop blocks and is woken it pays a context switch: 10-25 us
// of CPU on the 2-core virtual machines measured in docs/server.md, more than the work of one
// request. Under load a loop that wakes for every event spends more on waking than on working.
// After a busy turn (at least kBusyTurn units of work: requests read, answers written, transfers
// started or finished) the loop sleeps for its batch window, so that its next turn takes all
// that arrived meanwhile in one wake-up. A loop that handles one unit at a time (a lone caller)
// never waits, so a single call's latency is unchanged; under load each hand-off waits at most
// one window.
#pragma once

#include <chrono>
#include <cstddef>

namespace structure {

inline constexpr size_t kBusyTurn = 2;

// Sleeps for `window` when a turn handled `units` >= kBusyTurn units of work; a window of zero
// or less never sleeps.
void PauseAfterTurn(size_t units, std::chrono::microseconds window);

}  // namespace structure
