// The provider pool actor: the only owner of HTTP for one endpoint + key. It queues calls in
// two lanes (interactive before bulk), admits them under max concurrency and requests/min +
// tokens/min buckets, sends them through a transport on its own I/O thread, retries 429s
// (pausing the whole endpoint, honouring Retry-After) and transient faults (capped backoff
// with jitter), enforces per-request deadlines and cancellation, and answers every request
// exactly once, also on shutdown.
#pragma once

#include "actors/messages.h"
#include "providers/transport/transport.h"

namespace structure::actors {

// Replies to every PoolRequest with exactly one PoolReply (never a caf::error, unless the
// actor itself dies). cancel_atom answers matching requests with kCancelled at once.
using ProviderPoolActor = caf::typed_actor<caf::replies_to<PoolRequest>::with<PoolReply>,
                                           caf::reacts_to<cancel_atom, uint64_t>,
                                           caf::replies_to<stats_atom>::with<PoolStats>>;

// Spawns a pool. The transport is created inside the actor with a sink that holds only a
// weak reference to it. Stop the pool with send_exit: every pending request is then answered
// with kCancelled and the transport thread is joined.
ProviderPoolActor SpawnProviderPool(caf::actor_system& system, PoolConfig config,
                                    providers::TransportFactory transport_factory);

}  // namespace structure::actors
