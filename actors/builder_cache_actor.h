// The builder cache actor: answers build_atom + BuildJob with a BuildOutcome. Single-flight:
// concurrent jobs with the same key share one builder call; answers (outputs and need answers,
// not failures) persist in SQLite for the TTL, so the same description twice costs one call.
// With a shared store the answers are also kept there (same key and TTL), so a description
// built by one process is reused by every process; a store that is down is only a miss.
#pragma once

#include <memory>

#include <caf/all.hpp>

#include "actors/engine_messages.h"
#include "registry/builder_cache_store.h"
#include "registry/redis_client.h"

namespace structure::actors {

// `store` must not be null (open ":memory:" for a private one). ttl_ms <= 0: no expiry.
// `shared` may be null (no shared store).
caf::actor SpawnBuilderCache(caf::actor_system& system,
                             std::shared_ptr<registry::BuilderCacheStore> store, int64_t ttl_ms,
                             std::shared_ptr<registry::RedisClient> shared = nullptr);

}  // namespace structure::actors
