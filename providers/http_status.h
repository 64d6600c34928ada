// The single mapping from HTTP status / transport failure to Code, and the parsing of the
// rate-limit hints providers send (Retry-After, retry-after-ms, x-ratelimit-*).
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <string_view>

#include "providers/http.h"
#include "structure/status.h"

namespace structure::providers {

// Code for an HTTP status: 2xx kOk; 400/413/422 kInvalidArgument; 401 kUnauthenticated;
// 403 kPermissionDenied; 404 kNotFound; 408/409/5xx/529 kUnavailable; 429 kResourceExhausted;
// 499 kCancelled; other 4xx kInvalidArgument.
Code CodeFromHttpStatus(int status);

// Code for a transport failure: timeouts kDeadlineExceeded (retryable), cancellation
// kCancelled, a certificate not accepted kFailedPrecondition (never retried), everything else
// (refused, reset, DNS, TLS handshake) kUnavailable.
Code CodeFromTransportError(TransportError error);

// The Status for a finished exchange: ok for 2xx, otherwise the mapped code with a message
// "HTTP 429 from <provider>: <provider_message>" (or the transport error text).
// `provider_message` is what the wire format extracted from the error body (may be empty);
// `provider_error_type` is the provider's machine-readable kind (e.g. "insufficient_quota"),
// which can change the code: an exhausted quota is not worth retrying (kQuotaExhausted;
// ExtractProviderError gives every provider's form of it the type "insufficient_quota"), a
// schema too large to compile is kSchemaTooLarge (providers/schema_too_large.h).
Status StatusFromHttp(const HttpResponse& response, std::string_view provider,
                      std::string_view provider_message, std::string_view provider_error_type = {});

// Rate-limit hints from response headers. All fields are optional.
struct RateHint {
  std::optional<std::chrono::milliseconds> retry_after;     // Retry-After / retry-after-ms /
                                                            // Gemini RetryInfo.retryDelay
  std::optional<int64_t> limit_requests;                    // x-ratelimit-limit-requests
  std::optional<int64_t> remaining_requests;                // x-ratelimit-remaining-requests,
  std::optional<int64_t> remaining_tokens;                  // anthropic-ratelimit-*-remaining
  std::optional<std::chrono::milliseconds> reset_requests;  // x-ratelimit-reset-requests
  std::optional<std::chrono::milliseconds> reset_tokens;    // x-ratelimit-reset-tokens
};

// Parses the hints (headers, and for Gemini the error body). `now_unix_seconds` resolves HTTP-date
// and RFC 3339 forms into delays. Unparseable values are ignored, never an error.
RateHint ParseRateHint(const HttpResponse& response, int64_t now_unix_seconds);

// "1s", "6m0s", "20ms", "1h2m3.5s", or plain seconds "2.5" -> milliseconds.
std::optional<std::chrono::milliseconds> ParseDurationText(std::string_view text);

// "Sun, 06 Nov 1994 08:49:37 GMT" or "2026-11-29T20:00:00Z" -> Unix seconds.
std::optional<int64_t> ParseHttpDate(std::string_view text);

}  // namespace structure::providers
