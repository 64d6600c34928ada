// The provider pool actor's state, shared by its two files: provider_pool.cc (queueing,
// admission, attempts, retries) and pool_shared.cc (admission by the shared store). Internal to
// the pool; include only from those two.
#pragma once

#include <memory>
#include <optional>
#include <random>
#include <unordered_map>

#include "actors/provider_pool.h"
#include "providers/admission/shared_admission.h"

namespace structure::actors::pool {

using providers::DispatchQueue;
using providers::TimePoint;

using PoolImplActor =
    ProviderPoolActor::extend<caf::reacts_to<io_done_atom, Completions>, caf::reacts_to<wake_atom>,
                              caf::reacts_to<shared_atom, SharedReply>>;

struct Pending {
  PoolRequest request;
  std::optional<providers::HttpRequest> http;  // built, until the first attempt takes it
  int64_t est_tokens = 0;
  int attempts = 0;
  int transient_retries = 0;
  bool resent_unsent = false;  // the one at-once retry of an attempt that never left us is spent
  int rate_limited = 0;
  bool in_flight = false;
  bool asking = false;           // taken from the queue for the shared store's acquire in flight
  bool shared_acquired = false;  // this attempt was admitted by the shared store
  uint64_t tag = 0;              // PoolRequest::tag
  int last_http_status = 0;
  int64_t last_wire_us = 0;
  TimePoint arrived;
  TimePoint deadline = DispatchQueue::kNoDeadline;
  TimePoint eligible_since;         // queued (or its backoff ended) at; a wait for its turn since
  providers::Duration rate_wait{};  // waits for a turn under the rate limits
  providers::Duration backoff{};    // backoff before retries of transient faults
  int64_t wire_total_us = 0;        // every attempt's transfer time
  std::optional<TimePoint> first_dispatch;
  caf::typed_response_promise<PoolReply> promise;
};

struct PoolState {
  PoolConfig config;
  std::optional<providers::Limiter> limiter;
  std::unique_ptr<providers::Transport> transport;
  std::mt19937_64 rng;
  std::unordered_map<uint64_t, Pending> pending;
  DispatchQueue queue;
  std::optional<TimePoint> wake_at;
  uint64_t next_id = 1;
  PoolStats stats;
  // With a shared store (config.shared.client): its keys for this endpoint + key, and the
  // pool's side of the acquire protocol.
  providers::SharedLimitKeys shared_keys;
  providers::SharedAdmission shared;
  TimePoint store_retry_at{};  // after a failure, the store is not tried again before this

  ~PoolState() {
    if (transport) transport->Shutdown();
  }
};

using Self = PoolImplActor::stateful_pointer<PoolState>;

// Starts an attempt whose slot (and, with `shared`, the store's admission) is already taken.
void Send(Self self, uint64_t id, TimePoint now, bool shared);
// Arms one wake-up at `at` unless an earlier one is armed.
void ArmWake(Self self, TimePoint at);

}  // namespace structure::actors::pool
