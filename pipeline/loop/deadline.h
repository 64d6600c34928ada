// A call's deadline (callTimeoutMs) when it ends the call: where the time went, as the
// deadline_exceeded message says it. Pure.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace structure::pipeline {

// The provider calls of one structure call, as the provider pool reported them.
struct CallTiming {
  int calls = 0;             // provider calls answered (re-asks and the schema builder included)
  int attempts = 0;          // HTTP attempts over those calls (retries included)
  int64_t wire_us = 0;       // on the wire: sending, the provider thinking, receiving
  int64_t rate_wait_us = 0;  // waiting for a turn under the rate limits and 429 pauses
  int64_t backoff_us = 0;    // waiting before retries of transient faults (5xx, resets)
};

// "callTimeoutMs = 5000 ran out: <why>. The time went to 2 provider calls (5 attempts): 0.4 s on
// the wire, 4.5 s waiting out rate limits (429 answers, the queue), 0.1 s backing off after
// errors; raise callTimeoutMs (--call-timeout-ms) to give it more".
std::string DeadlineMessage(int64_t timeout_ms, const CallTiming& timing, std::string_view why);

}  // namespace structure::pipeline
