// Dialect: one provider's wire format as the simulator speaks it (server side): which requests
// it serves, how it authenticates, how it parses a request into a ChatRequest, and how it
// renders answers and errors in that provider's exact JSON shapes. Implementations are pure.
#pragma once

#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "http/http_message.h"
#include "sim/chat.h"

namespace structure::sim {

// Keys the simulator treats as invalid (any other non-empty key is accepted).
struct KeyPolicy {
  std::set<std::string> invalid_keys;
};

// Rate-limit state reported in provider headers (x-ratelimit-*, anthropic-ratelimit-*).
struct LimitSnapshot {
  int64_t requests_limit = 0;  // 0 = no request limit configured
  int64_t requests_remaining = 0;
  double requests_reset_s = 0;
  int64_t tokens_limit = 0;  // 0 = no token limit configured
  int64_t tokens_remaining = 0;
  double tokens_reset_s = 0;
  double retry_after_s = 0;      // when limited: time until the request would fit
  bool tokens_exceeded = false;  // limited by tokens rather than requests
};

// How an injected 429 advertises its wait (fault injection, not the enforced limiter).
enum class RetryHint { kNone, kRetryAfter, kRetryAfterMs, kRateLimitHeaders };

class Dialect {
 public:
  virtual ~Dialect() = default;

  virtual Provider provider() const = 0;

  // True when this dialect owns the request's path (any method; Parse rejects wrong ones).
  virtual bool Serves(const http::HttpRequest& request) const = 0;

  // nullopt when the request carries acceptable credentials; else the provider's 401/403/400.
  virtual std::optional<http::HttpResponse> CheckAuth(const http::HttpRequest& request,
                                                      const KeyPolicy& keys) const = 0;

  // Parses and checks the request the way the provider does. Errors carry the provider's
  // message: kInvalidArgument → 400, kNotFound → 404 (see Error()).
  virtual Result<ChatRequest> Parse(const http::HttpRequest& request) const = 0;

  // The provider's 200 answer for a kContent / kToolCall / kRefusal / kSafety answer.
  virtual http::HttpResponse Render(const ChatRequest& request, const Answer& answer,
                                    const Usage& usage, uint64_t id_seed) const = 0;

  // An error in the provider's shape. `type` overrides the provider error type when not empty.
  virtual http::HttpResponse Error(int status, std::string_view message,
                                   std::string_view type = {}) const = 0;

  // The provider's answer to a parameter the requested model does not take.
  virtual http::HttpResponse ParamError(const ParamRejection& r) const {
    return Error(r.status, r.message);
  }

  // The provider's wording for a rejected schema (one issue from the strict check).
  virtual std::string SchemaRejection(const CheckedSchema& where, std::string_view issue) const = 0;

  // Headers describing limits, on every answer when limits are configured and on 429s.
  virtual std::vector<http::Header> LimitHeaders(const LimitSnapshot& limits,
                                                 bool limited) const = 0;

  // The 429 the provider sends when the limiter (or a fault) says no.
  virtual http::HttpResponse RateLimited(const LimitSnapshot& limits, RetryHint hint) const = 0;
};

std::unique_ptr<Dialect> MakeOpenAiDialect();
std::unique_ptr<Dialect> MakeAnthropicDialect();
std::unique_ptr<Dialect> MakeGeminiDialect();
std::unique_ptr<Dialect> MakeOllamaDialect();

}  // namespace structure::sim
