// [providers.<name>] keys for reaching a provider through company networks: a proxy, the CAs
// to trust, certificate checking and the connect timeout. As written in the file; the
// environment (HTTPS_PROXY, NO_PROXY, SSL_CERT_FILE, ...) fills what is unset when the engine
// starts (providers/transport/network.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace structure::config {

struct NetworkSettings {
  std::optional<std::string> proxy;  // set: replaces the *_proxy variables; "" = no proxy
  std::string ca_file;               // PEM bundle of trusted CAs; empty = SSL_CERT_FILE or system
  std::string ca_path;               // hashed CA directory; empty = SSL_CERT_DIR or none
  bool verify_tls = true;            // false: allowed, with a loud warning unless loopback
  int64_t connect_timeout_ms = 10'000;  // TCP connect + proxy tunnel + TLS handshake
};

}  // namespace structure::config
