#include "providers/http_status.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <ctime>

#include "base/json.h"
#include "base/time_format.h"
#include "providers/context_too_long.h"
#include "providers/openai_compat/known_servers.h"
#include "providers/schema_too_large.h"

namespace structure::providers {
namespace {

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::optional<double> ParseNumber(std::string_view s) {
  s = Trim(s);
  if (s.empty()) return std::nullopt;
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v) || v < 0) {
    return std::nullopt;
  }
  return v;
}

std::optional<int64_t> ParseCount(std::string_view s) {
  auto v = ParseNumber(s);
  if (!v) return std::nullopt;
  return static_cast<int64_t>(std::min(*v, 1e15));  // a hostile header must not overflow
}

std::chrono::milliseconds Ms(double v) {
  // Clamp so that a hostile header cannot overflow the clock arithmetic: about 3 years, far
  // beyond any call's deadline (at most a day), so a wait longer than the call has left is
  // reported as asked ("asked to wait 100000.0 s") and the call ends at once.
  constexpr double kMaxMs = 100'000'000'000.0;
  return std::chrono::milliseconds(static_cast<int64_t>(std::ceil(std::min(v, kMaxMs))));
}

// A delay given either as seconds/duration text or as an absolute date.
std::optional<std::chrono::milliseconds> DelayFrom(std::string_view v, int64_t now) {
  if (v.empty()) return std::nullopt;
  if (auto d = ParseDurationText(v)) return d;
  if (auto t = ParseHttpDate(v)) return Ms(std::max<int64_t>(0, *t - now) * 1000.0);
  return std::nullopt;
}

int MonthIndex(std::string_view m) {
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (int i = 0; i < 12; ++i) {
    if (m == kMonths[i]) return i;
  }
  return -1;
}

// Gemini states the wait in a google.rpc.RetryInfo detail: error.details[].retryDelay "13s".
std::optional<std::chrono::milliseconds> RetryDelayFromBody(std::string_view body) {
  ParseOptions opts;
  opts.max_depth = 32;
  auto parsed = ParseJson(body, opts);
  if (!parsed.ok()) return std::nullopt;
  const Json* err = parsed->find("error");
  const Json* details = err ? err->find("details") : nullptr;
  if (!details || !details->is_array()) return std::nullopt;
  for (const Json& d : details->as_array()) {
    const Json* delay = d.find("retryDelay");
    if (delay && delay->is_string()) return ParseDurationText(delay->as_string());
  }
  return std::nullopt;
}

}  // namespace

Code CodeFromHttpStatus(int status) {
  if (status >= 200 && status < 300) return Code::kOk;
  switch (status) {
    case 400:
    case 413:
    case 422:
      return Code::kInvalidArgument;
    case 401:
      return Code::kUnauthenticated;
    case 403:
      return Code::kPermissionDenied;
    case 404:
      return Code::kNotFound;
    case 408:
    case 409:
      return Code::kUnavailable;
    case 429:
      return Code::kResourceExhausted;
    case 499:
      return Code::kCancelled;
    default:
      break;
  }
  if (status >= 500 && status < 600) return Code::kUnavailable;
  if (status >= 400 && status < 500) return Code::kInvalidArgument;
  // 1xx/3xx as a final status, or garbage: the server did not answer the call.
  return Code::kUnavailable;
}

Code CodeFromTransportError(TransportError error) {
  switch (error) {
    case TransportError::kNone:
      return Code::kOk;
    case TransportError::kTimeout:
      return Code::kDeadlineExceeded;
    case TransportError::kCancelled:
      return Code::kCancelled;
    case TransportError::kTlsVerify:
      return Code::kFailedPrecondition;  // waiting does not make a certificate trusted
    case TransportError::kConnect:
    case TransportError::kDns:
    case TransportError::kReset:
    case TransportError::kTls:
    case TransportError::kOther:
      return Code::kUnavailable;
  }
  return Code::kUnavailable;
}

Status StatusFromHttp(const HttpResponse& response, std::string_view provider,
                      std::string_view provider_message, std::string_view provider_error_type) {
  if (response.error != TransportError::kNone) {
    std::string m = "transport error talking to ";
    m += provider;
    m += ": ";
    m += response.error_text.empty() ? "unknown failure" : response.error_text;
    return Status(CodeFromTransportError(response.error), std::move(m));
  }
  Code code = CodeFromHttpStatus(response.status);
  if (code == Code::kOk) return Status::Ok();
  if (provider_error_type == "insufficient_quota" || provider_error_type == "billing_error") {
    code = Code::kQuotaExhausted;  // no amount of waiting refills a spent quota
  }
  if (provider_error_type == "API_KEY_INVALID") code = Code::kUnauthenticated;
  if (IsSchemaTooLarge(response.status, provider_error_type, provider_message))
    code = Code::kSchemaTooLarge;  // a smaller schema passes: the engine splits it
  if (IsContextTooLong(response.status, provider_error_type, provider_message))
    code = Code::kContextTooLong;  // a shorter input passes: the engine splits the input
  std::string m = "HTTP " + std::to_string(response.status) + " from ";
  m += provider;
  if (!provider_message.empty()) {
    m += ": ";
    m += provider_message.substr(0, 2000);
  }
  if (IsSchemaFormRefused(response.status, provider_message)) {
    m += " (this server takes no response_format json_schema: set profile = \"json\" for it, "
         "which asks with json_object and the schema in the prompt, the answer validated "
         "locally)";
  }
  if (code == Code::kQuotaExhausted) {
    m += " (the account behind the key has no quota or credit left: add credit or raise the quota "
         "with the provider; this is not retried)";
  }
  return Status(code, std::move(m));
}

std::optional<std::chrono::milliseconds> ParseDurationText(std::string_view text) {
  text = Trim(text);
  if (text.empty()) return std::nullopt;
  if (auto v = ParseNumber(text)) return Ms(*v * 1000.0);
  // Go-style duration as OpenAI sends it: sequences of <number><unit>.
  double total_ms = 0;
  while (!text.empty()) {
    size_t i = 0;
    while (i < text.size() &&
           (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.')) {
      ++i;
    }
    if (i == 0) return std::nullopt;
    auto num = ParseNumber(text.substr(0, i));
    if (!num) return std::nullopt;
    text.remove_prefix(i);
    size_t j = 0;
    while (j < text.size() && std::isalpha(static_cast<unsigned char>(text[j]))) ++j;
    std::string_view unit = text.substr(0, j);
    text.remove_prefix(j);
    double scale = 0;
    if (unit == "ms")
      scale = 1;
    else if (unit == "s")
      scale = 1000;
    else if (unit == "m")
      scale = 60'000;
    else if (unit == "h")
      scale = 3'600'000;
    else if (unit == "us" || unit == "µs")
      scale = 0.001;
    else
      return std::nullopt;
    total_ms += *num * scale;
  }
  return Ms(total_ms);
}

std::optional<int64_t> ParseHttpDate(std::string_view text) {
  std::string s(Trim(text));
  int day = 0, year = 0, hh = 0, mm = 0, ss = 0;
  char mon[4] = {0};
  // IMF-fixdate: "Sun, 06 Nov 1994 08:49:37 GMT".
  if (std::sscanf(s.c_str(), "%*3s, %2d %3s %4d %2d:%2d:%2d GMT", &day, mon, &year, &hh, &mm,
                  &ss) == 6) {
    int month = MonthIndex(mon);
    if (month < 0) return std::nullopt;
    return UnixSecondsOf(year, month + 1, day, hh, mm, ss);
  }
  // RFC 3339 (Anthropic's *-reset headers): "2026-11-29T20:00:00Z".
  return ParseRfc3339(s);
}

RateHint ParseRateHint(const HttpResponse& r, int64_t now) {
  RateHint h;
  // retry-after-ms is the more precise of the two when both are present.
  if (auto v = ParseNumber(r.Header("retry-after-ms"))) {
    h.retry_after = Ms(*v);
  } else if (auto d = DelayFrom(r.Header("retry-after"), now)) {
    h.retry_after = d;
  }
  if (!h.retry_after && r.status >= 400 && r.body.find("retryDelay") != std::string::npos) {
    h.retry_after = RetryDelayFromBody(r.body);
  }
  h.limit_requests = ParseCount(r.Header("x-ratelimit-limit-requests"));
  if (!h.limit_requests)
    h.limit_requests = ParseCount(r.Header("anthropic-ratelimit-requests-limit"));
  h.remaining_requests = ParseCount(r.Header("x-ratelimit-remaining-requests"));
  if (!h.remaining_requests) {
    h.remaining_requests = ParseCount(r.Header("anthropic-ratelimit-requests-remaining"));
  }
  h.remaining_tokens = ParseCount(r.Header("x-ratelimit-remaining-tokens"));
  if (!h.remaining_tokens) {
    h.remaining_tokens = ParseCount(r.Header("anthropic-ratelimit-tokens-remaining"));
  }
  h.reset_requests = DelayFrom(r.Header("x-ratelimit-reset-requests"), now);
  if (!h.reset_requests) {
    h.reset_requests = DelayFrom(r.Header("anthropic-ratelimit-requests-reset"), now);
  }
  h.reset_tokens = DelayFrom(r.Header("x-ratelimit-reset-tokens"), now);
  if (!h.reset_tokens)
    h.reset_tokens = DelayFrom(r.Header("anthropic-ratelimit-tokens-reset"), now);
  return h;
}

}  // namespace structure::providers
