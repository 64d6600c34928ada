#include "config/shared_store.h"

#include <algorithm>
#include <charconv>

namespace structure::config {
namespace {

bool ParseInt(std::string_view s, int max, int* out) {
  if (s.empty() || s.size() > 10) return false;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
  return ec == std::errc() && end == s.data() + s.size() && *out >= 0 && *out <= max;
}

}  // namespace

Result<SharedStoreUrl> ParseSharedStoreUrl(std::string_view url) {
  const std::string was = " (was '" + std::string(url) + "')";
  constexpr std::string_view kScheme = "redis://";
  if (url.rfind("rediss://", 0) == 0) {
    return InvalidArgument(
        "rediss:// (TLS) is not supported: Debian 12's hiredis 0.14 has no TLS; use redis:// on "
        "a trusted network or through a TLS tunnel (e.g. stunnel)");
  }
  if (url.rfind(kScheme, 0) != 0) {
    return InvalidArgument("must be a redis:// URL, e.g. redis://127.0.0.1:6379/0" + was);
  }
  std::string_view rest = url.substr(kScheme.size());
  SharedStoreUrl out;
  size_t slash = rest.find('/');
  std::string_view authority = rest.substr(0, slash);
  if (slash != std::string_view::npos) {
    std::string_view db = rest.substr(slash + 1);
    if (!db.empty() && !ParseInt(db, 1 << 30, &out.db)) {
      return InvalidArgument("the database after '/' must be a number, e.g. /0" + was);
    }
  }
  size_t at = authority.rfind('@');
  if (at != std::string_view::npos) {
    std::string_view user = authority.substr(0, at);
    if (user.find(':') != std::string_view::npos) {
      return InvalidArgument(
          "a password in the URL is not allowed: name the environment variable holding it in "
          "stores.shared_password_env");
    }
    out.username = std::string(user);
    authority = authority.substr(at + 1);
  }
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    size_t close = authority.find(']');
    if (close == std::string_view::npos) return InvalidArgument("unclosed '[' in the host" + was);
    out.host = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return InvalidArgument("expected ':PORT' after ']'" + was);
      port = after.substr(1);
      if (port.empty()) return InvalidArgument("the port after ':' is missing" + was);
    }
  } else {
    size_t colon = authority.find(':');
    out.host = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) {
      port = authority.substr(colon + 1);
      if (port.empty()) return InvalidArgument("the port after ':' is missing" + was);
    }
  }
  if (out.host.empty())
    return InvalidArgument("the host is missing, e.g. redis://127.0.0.1:6379/0" + was);
  if (!port.empty() && (!ParseInt(port, 65535, &out.port) || out.port == 0)) {
    return InvalidArgument("the port must be 1..65535" + was);
  }
  return out;
}

double FallbackShare(const Stores& stores) {
  if (stores.shared_fallback_share > 0) return stores.shared_fallback_share;
  return 1.0 / std::max(1, stores.shared_expected_processes);
}

}  // namespace structure::config
