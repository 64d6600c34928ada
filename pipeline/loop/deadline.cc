#include "pipeline/loop/deadline.h"

#include <cstdio>

namespace structure::pipeline {
namespace {

std::string Seconds(int64_t us) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", static_cast<double>(us) / 1e6);
  return buf;
}

std::string Count(int n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

}  // namespace

std::string DeadlineMessage(int64_t timeout_ms, const CallTiming& t, std::string_view why) {
  std::string m = "callTimeoutMs = " + std::to_string(timeout_ms) +
                  " ran out: " + std::string(why) + ". The time went to ";
  if (t.calls == 0 && t.attempts == 0) {
    m += "no provider call that ended";
  } else {
    m += Count(t.calls, "provider call", "provider calls") + " (" +
         Count(t.attempts, "attempt", "attempts") + "): " + Seconds(t.wire_us) + " on the wire, " +
         Seconds(t.rate_wait_us) + " waiting out rate limits (429 answers, the queue), " +
         Seconds(t.backoff_us) + " backing off after errors";
  }
  return m + "; raise callTimeoutMs (--call-timeout-ms) to give it more";
}

}  // namespace structure::pipeline
