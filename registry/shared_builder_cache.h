// The schema builder's cache in the shared store (Redis), so a description built by one process
// is reused by every process: one string per description under "structure:builder:<key>" (the
// SQLite cache's key), holding the entry as JSON, expiring after the same TTL. Pure encoding;
// the builder cache actor does the I/O through registry/redis_client.h.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "registry/builder_cache_store.h"

namespace structure::registry {

std::string SharedBuilderKey(const std::string& key);

// {"normalized", "need", "schema", "question", "confidence", "createdMs"}.
std::string EncodeSharedBuild(const std::string& normalized, const CachedBuild& entry);

// The entry if `value` is one, for this `normalized` text (not a hash collision), younger than
// ttl_ms at now_ms (ttl_ms <= 0: no expiry); nullopt otherwise (a damaged value is a miss).
std::optional<CachedBuild> DecodeSharedBuild(std::string_view value, const std::string& normalized,
                                             int64_t now_ms, int64_t ttl_ms);

}  // namespace structure::registry
