// Plain HTTP request/response structs: what wire formats build and parse, and what the
// transport carries. No I/O here.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace structure::providers {

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

struct HttpRequest {
  std::string method = "POST";
  std::string url;
  HttpHeaders headers;  // sent as given; never logged (they may carry a key)
  std::string body;
  int64_t timeout_ms = 0;  // whole-transfer timeout; 0 = none
};

// How a transfer failed below HTTP. kNone when a status line was received.
enum class TransportError {
  kNone = 0,
  kConnect,    // connection refused / unreachable
  kDns,        // host name did not resolve
  kTimeout,    // the transfer timeout elapsed
  kReset,      // connection reset, closed early, or empty reply
  kTls,        // TLS handshake failure (not a certificate verdict)
  kTlsVerify,  // the server's certificate was not accepted (untrusted CA, wrong host name)
  kCancelled,  // cancelled by the caller
  kOther,
};

struct HttpResponse {
  int status = 0;       // HTTP status, 0 when the transfer failed
  HttpHeaders headers;  // names lower-cased
  std::string body;
  TransportError error = TransportError::kNone;
  std::string error_text;  // transport detail when error != kNone
  int64_t wire_us = 0;     // time on the wire, for measurements
  // A failed transfer whose request never left this process (no connection, a failed or
  // stalled TLS handshake or proxy tunnel): sending it again cannot duplicate a call.
  bool nothing_sent = false;

  // First header with this lower-case name, or empty.
  std::string_view Header(std::string_view lower_name) const {
    for (const auto& [k, v] : headers) {
      if (k == lower_name) return v;
    }
    return {};
  }
};

}  // namespace structure::providers
