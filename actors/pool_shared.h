// The provider pool's admission by the shared store (docs/providers.md, "Several processes on one
// key"): while the store answers, the requests/min and tokens/min of the pool's endpoint + key
// are GCRA cells in Redis shared by every process (providers/admission/shared_limit.h); when it
// does not, the pool's own limiter enforces the configured fallback share until it answers again.
#pragma once

#include "actors/pool_state.h"

namespace structure::actors::pool {

bool HasStore(const PoolState& st);
// Called once when the pool starts: the store's keys, and the local rates off.
void InitShared(Self self);
// The store answers again (after the pause that follows a failure): it rules again.
void ReturnToStoreIfBack(Self self, TimePoint now);
// Takes the requests that may start (concurrency and local pauses allow) and asks the store
// for all of them in one round trip, with the pending token corrections; `next` gets the time
// to look again when the store said to wait.
void PumpShared(Self self, TimePoint now, std::optional<TimePoint>& next);
// The acquire's answer: starts the granted requests, puts the others back; a failure hands the
// rates to the fallback.
void OnSharedReply(Self self, SharedReply& reply);
// A 429's pause, written to the store so every process on the key waits.
void PublishPause(Self self, providers::Duration pause);

}  // namespace structure::actors::pool
