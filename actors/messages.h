// CAF message types, atoms and the type-ID block of the engine's actors. Plain structs from
// providers/ travel as local-only (unsafe) message types: the pool is not published over the
// network yet, so they need no inspect() overloads.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include <caf/all.hpp>

#include "providers/admission/dispatch_queue.h"
#include "providers/admission/rate_limit.h"
#include "providers/admission/shared_limit.h"
#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/transport/transport.h"
#include "registry/redis_client.h"
#include "structure/status.h"

namespace structure::actors {

// kInteractive is served first and overtakes any bulk backlog.
using Lane = providers::QueueLane;

struct PoolRequest {
  providers::ProviderCall call;
  Lane lane = Lane::kBulk;
  // Whole budget (every attempt and backoff, and for interactive calls the queueing); 0 = none.
  // A bulk call's waits for its turn under the rate limits (the queue, 429 pauses) are not
  // charged to it: a batch job may wait for its turn (docs/batch.md).
  std::chrono::milliseconds timeout{0};
  uint64_t cancel_key = 0;  // cancel_atom with this key cancels it; 0 = not cancellable
  // Echoed in PoolReply::tag. A caller with many calls in flight sends (not requests) and
  // matches replies by tag: CAF 0.17 keeps a requester's pending responses in a flat vector,
  // searched and shifted per reply, so `request` costs O(calls in flight) per reply.
  uint64_t tag = 0;
};

struct PoolReply {
  Status status;                   // ok, or why the call failed after retries
  providers::ProviderReply reply;  // meaningful iff status.ok()
  int attempts = 0;                // HTTP attempts made
  int http_status = 0;             // of the last attempt (0: none or transport failure)
  int64_t queued_us = 0;           // arrival to first dispatch
  int64_t wire_us = 0;             // transfer time of the last attempt
  int64_t total_us = 0;            // arrival to reply
  // Where total_us went, for a deadline's message: every attempt on the wire, waits for a turn
  // under the rate limits (the queue, 429 pauses), backoff before retries of transient faults.
  int64_t wire_total_us = 0;
  int64_t rate_wait_us = 0;
  int64_t backoff_us = 0;
  uint64_t tag = 0;  // PoolRequest::tag
};

struct PoolStats {
  int64_t queued = 0;
  int64_t in_flight = 0;
  int64_t max_in_flight = 0;
  int64_t concurrency_cap = 0;
  int64_t completed = 0;  // replies sent (any status)
  int64_t succeeded = 0;
  int64_t retries = 0;          // attempts beyond the first
  int64_t rate_limited = 0;     // 429s seen
  bool shared = false;          // the shared store rules the rates now (false: local, or fallback)
  int64_t shared_asks = 0;      // acquire round trips to the shared store
  int64_t store_fallbacks = 0;  // times the store could not be reached and the fallback took over
};

// Limits shared with other processes through the shared store (docs/providers.md).
struct SharedLimitConfig {
  std::shared_ptr<registry::RedisClient> client;  // null: this process's limits are its own
  double fallback_share = 1;  // share of each rate enforced locally while the store is unreachable
};

// An acquire script's answer, back on the pool's thread.
struct SharedReply {
  Status status;  // not ok: the store could not be used (the fallback takes over)
  providers::SharedGrant grant;
};

struct PoolConfig {
  providers::Endpoint endpoint;
  providers::Limits limits;
  providers::BackoffPolicy backoff;
  int max_retries = 4;              // transient faults (5xx, resets, timeouts) per request
  int max_rate_limit_retries = 30;  // 429s per request
  std::chrono::milliseconds max_retry_after{60'000};  // cap on a server-requested pause
  uint64_t seed = 0x5eed;                             // jitter RNG seed
  SharedLimitConfig shared;
  // Added to the message of a request that could not connect (the built-in simulator provider
  // says how to start it); empty for every other provider.
  std::string unreachable_hint;
};

using Completions = std::vector<providers::Completion>;

}  // namespace structure::actors

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(structure::actors::PoolRequest)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(structure::actors::PoolReply)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(structure::actors::PoolStats)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(structure::actors::Completions)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(structure::actors::SharedReply)

CAF_BEGIN_TYPE_ID_BLOCK(structure, caf::first_custom_type_id)
CAF_ADD_ATOM(structure, structure::actors, cancel_atom, "cancel")
CAF_ADD_ATOM(structure, structure::actors, stats_atom, "stats")
CAF_ADD_ATOM(structure, structure::actors, io_done_atom, "io_done")
CAF_ADD_ATOM(structure, structure::actors, wake_atom, "wake")
CAF_ADD_ATOM(structure, structure::actors, shared_atom, "shared")
CAF_END_TYPE_ID_BLOCK(structure)
