// Provider limits shared by several processes through the shared store (Redis): the Lua scripts
// and what goes in and out of them. Pure: building arguments and reading replies; the pool actor
// sends them through registry/redis_client.h.
//
// Each limit (requests/min, tokens/min of one endpoint + key) is a GCRA cell in Redis: one
// number, the theoretical arrival time (TAT, microseconds of the Redis server's clock). It
// behaves exactly like the local TokenBucket (rate/60 per second, `burst_seconds` of capacity,
// debt when a cost is corrected upwards), so a process gets the same admissions from it that it
// would from its own bucket, but every process draws from the same one.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "providers/admission/rate_limit.h"
#include "providers/endpoint.h"
#include "structure/status.h"

namespace structure::providers {

// The Redis keys of one endpoint + key. The key is never part of a name: names carry a SHA-256
// of kind, base URL and key ("structure:limit:{<32 hex>}:requests"; the braces keep the three
// keys of one script in one Redis Cluster slot).
struct SharedLimitKeys {
  std::string requests;
  std::string tokens;
  std::string pause;  // "no request before" (a 429's Retry-After), microseconds
};
SharedLimitKeys SharedKeysFor(const Endpoint& endpoint);

// Acquire: takes up to `est_tokens.size()` requests, in order, while each one and its estimated
// tokens fit both limits and the endpoint is not paused; first applies `token_refund` (estimates
// minus reported usage since the last call; negative takes more). Replies {granted, wait_us}:
// wait_us is when the first request not granted would fit (0 when all were granted).
extern const std::string_view kAcquireScript;
// Pause: no request before now + pause_us (keeps a later pause already set). Replies the pause
// left in microseconds.
extern const std::string_view kPauseScript;

struct AcquireAsk {
  std::vector<int64_t> est_tokens;  // one per request, in dispatch order; may be empty
  int64_t token_refund = 0;
  int64_t now_us = 0;  // tests only: a fixed clock; 0 = the Redis server's TIME
};

// KEYS for both scripts: {requests, tokens, pause}.
std::vector<std::string> SharedKeyList(const SharedLimitKeys& keys);
// ARGV of kAcquireScript for `limits` (requests_per_minute, tokens_per_minute, burst_seconds).
std::vector<std::string> AcquireArgs(const Limits& limits, const AcquireAsk& ask);
// ARGV of kPauseScript.
std::vector<std::string> PauseArgs(Duration pause, int64_t now_us = 0);

struct SharedGrant {
  size_t granted = 0;
  Duration wait{};  // when the next request may fit, if not all were granted
};
// Reads kAcquireScript's reply (its integers). kInternal for anything else.
Result<SharedGrant> ParseGrant(const std::vector<int64_t>& reply, size_t asked);

}  // namespace structure::providers
