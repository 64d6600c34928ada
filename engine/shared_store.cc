#include "engine/shared_store.h"

#include <cstdio>
#include <cstdlib>

#include "config/shared_store.h"

namespace structure::actors {
namespace {

std::string Percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3g %%", share * 100);
  return buf;
}

}  // namespace

Result<registry::RedisOptions> SharedStoreOptions(const config::Stores& s) {
  auto url = config::ParseSharedStoreUrl(s.shared);
  if (!url.ok()) return InvalidArgument("stores.shared: " + url.status().message());
  registry::RedisOptions o;
  o.host = url->host;
  o.port = url->port;
  o.db = url->db;
  o.username = url->username;
  o.name = s.shared;
  if (!s.shared_password_env.empty()) {
    const char* pw = std::getenv(s.shared_password_env.c_str());
    if (pw == nullptr || *pw == 0) {
      return InvalidArgument("stores.shared_password_env: the variable " + s.shared_password_env +
                             " is not set");
    }
    o.password = pw;
  }
  return o;
}

Result<std::shared_ptr<registry::RedisClient>> OpenSharedStore(
    const config::Stores& s, std::function<void(const std::string&)> log) {
  if (s.shared.empty()) return std::shared_ptr<registry::RedisClient>();
  auto o = SharedStoreOptions(s);
  if (!o.ok()) return o.status();
  std::string share = Percent(config::FallbackShare(s));
  std::string name = s.shared;
  o->on_down = [log, name, share](const std::string& error) {
    log("shared store " + name + " unreachable (" + error + "): each provider limit falls back " +
        "to a local share of " + share + " until it answers");
  };
  o->on_up = [log, name] {
    log("shared store " + name + " answers again: provider limits are shared again");
  };
  return std::make_shared<registry::RedisClient>(std::move(*o));
}

Status PingSharedStore(const config::Stores& s) {
  auto o = SharedStoreOptions(s);
  if (!o.ok()) return o.status();
  o->timeout = std::chrono::seconds(2);
  return registry::RedisClient::Ping(*o);
}

}  // namespace structure::actors
