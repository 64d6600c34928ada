// How the transport reaches one provider: the proxy, the trusted CAs, whether certificates are
// checked, the connect timeout. Pure functions that decide them from the configuration and the
// environment, once per provider at start (never per transfer).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "providers/endpoint.h"
#include "structure/status.h"

namespace structure::providers {

// Resolved network settings of one provider, as the curl transport applies them.
struct NetworkOptions {
  std::string proxy;    // proxy URL (http://, https://, socks5://, socks5h://...); empty = direct
  std::string ca_file;  // PEM file of trusted CAs; empty = the system store
  std::string ca_path;  // OpenSSL hashed certificate directory; empty = none
  bool verify_tls = true;
  int64_t connect_timeout_ms = 10'000;  // TCP connect + proxy CONNECT + TLS handshake
};

// What a provider's configuration says; unset fields come from the environment.
struct NetworkConfig {
  std::optional<std::string> proxy;  // set: replaces the *_proxy variables ("" = no proxy)
  std::string ca_file;               // empty: SSL_CERT_FILE, else the system store
  std::string ca_path;               // empty: SSL_CERT_DIR, else none
  bool verify_tls = true;
  int64_t connect_timeout_ms = 10'000;
};

// The proxy the environment names for `url`, as curl and the official SDKs read it:
// https_proxy / HTTPS_PROXY for https URLs, http_proxy / HTTP_PROXY for http URLs, then
// all_proxy / ALL_PROXY (lower case first). Empty when none is set or when no_proxy / NO_PROXY
// matches the host (NoProxyMatches). A value without a scheme means http:// (as curl).
std::string ProxyFromEnv(std::string_view url, const GetEnvFn& getenv_fn = nullptr);

// True when `host` is excluded by a NO_PROXY list: "*" matches every host; each entry, comma
// separated with optional spaces and an optional port, matches the host itself and, as a domain,
// its subdomains (a leading dot is ignored); an IPv4 entry with /N matches that network.
// Case-insensitive.
bool NoProxyMatches(std::string_view no_proxy, std::string_view host);

// The host of an http(s) URL, without brackets or port ("api.openai.com", "::1").
std::string HostOf(std::string_view url);

// kInvalidArgument unless `url` is a proxy URL libcurl takes: scheme http, https, socks4,
// socks4a, socks5 or socks5h (none: http), a host and an optional port 1..65535.
Status CheckProxyUrl(std::string_view url);

// The proxy URL with any user:password replaced by "***", for messages and `config check`.
std::string RedactProxy(std::string_view url);

// The settings for `base_url` from `config` and the environment (SSL_CERT_FILE, SSL_CERT_DIR and
// the proxy variables). Errors (kInvalidArgument, "<what>: <why>") for a bad proxy URL, a CA file
// that cannot be read or holds no PEM certificate, a CA directory that is not one. `warning`
// gets a line for verify_tls = false on a host that is not loopback (allowed, but said loudly).
Result<NetworkOptions> ResolveNetwork(const NetworkConfig& config, std::string_view base_url,
                                      const GetEnvFn& getenv_fn, std::string* warning);

}  // namespace structure::providers
