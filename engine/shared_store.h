// The shared store named by the configuration (stores.shared): the client's settings, the
// client itself with the engine's outage messages, and a one-off PING for `config check`.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "base/status.h"
#include "config/engine_config.h"
#include "registry/redis_client.h"

namespace structure::actors {

// Host, port, database, user and password (from the variable stores.shared_password_env names).
// kInvalidArgument for a bad URL or a named password variable that is not set.
Result<registry::RedisOptions> SharedStoreOptions(const config::Stores& stores);

// The client when stores.shared is set, else null. It connects in the background: a store that
// is down at start only means the fallback share rules until it answers. `log` gets one line
// when the store becomes unreachable and one when it answers again.
Result<std::shared_ptr<registry::RedisClient>> OpenSharedStore(
    const config::Stores& stores, std::function<void(const std::string&)> log);

// Connects and PINGs once (blocking, at most a few seconds). Ok when it answers.
Status PingSharedStore(const config::Stores& stores);

}  // namespace structure::actors
