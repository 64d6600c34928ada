// The shared store setting (`stores.shared = "redis://HOST:PORT/DB"`): its URL and the share of
// each provider limit a process takes while the store is unreachable. Pure; the connection
// itself is registry/redis_client.h.
#pragma once

#include <string>
#include <string_view>

#include "config/engine_config.h"
#include "structure/status.h"

namespace structure::config {

struct SharedStoreUrl {
  std::string host;
  int port = 6379;
  int db = 0;
  std::string username;  // redis://USER@HOST:PORT/DB (Redis 6 ACL); the password never in a URL
};

// Parses "redis://[USER@]HOST[:PORT][/DB]" (HOST may be "[v6]"). kInvalidArgument says what is
// wrong; "rediss://" is refused (Debian 12's hiredis 0.14 has no TLS) and so is a password in
// the URL (it belongs in the variable named by stores.shared_password_env).
Result<SharedStoreUrl> ParseSharedStoreUrl(std::string_view url);

// The share of each limit a process takes without the store: stores.shared_fallback_share when
// set (> 0), else 1 / stores.shared_expected_processes.
double FallbackShare(const Stores& stores);

}  // namespace structure::config
