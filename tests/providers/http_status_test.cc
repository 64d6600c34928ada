#include "providers/http_status.h"

#include <gtest/gtest.h>

#include "providers/schema_too_large.h"

namespace structure::providers {
namespace {

using std::chrono::milliseconds;

TEST(HttpStatusTest, MapsStatusesToCodesWithRetryMeaning) {
  struct {
    int status;
    Code code;
    bool retryable;
  } cases[] = {
      {200, Code::kOk, false},
      {204, Code::kOk, false},
      {400, Code::kInvalidArgument, false},
      {401, Code::kUnauthenticated, false},
      {403, Code::kPermissionDenied, false},
      {404, Code::kNotFound, false},
      {408, Code::kUnavailable, true},
      {413, Code::kInvalidArgument, false},
      {422, Code::kInvalidArgument, false},
      {429, Code::kResourceExhausted, true},
      {499, Code::kCancelled, false},
      {500, Code::kUnavailable, true},
      {502, Code::kUnavailable, true},
      {503, Code::kUnavailable, true},
      {529, Code::kUnavailable, true},
      {418, Code::kInvalidArgument, false},
      {302, Code::kUnavailable, true},
  };
  for (const auto& c : cases) {
    EXPECT_EQ(CodeFromHttpStatus(c.status), c.code) << c.status;
    EXPECT_EQ(IsRetryable(CodeFromHttpStatus(c.status)), c.retryable) << c.status;
  }
}

TEST(HttpStatusTest, MapsTransportErrors) {
  EXPECT_EQ(CodeFromTransportError(TransportError::kReset), Code::kUnavailable);
  EXPECT_EQ(CodeFromTransportError(TransportError::kConnect), Code::kUnavailable);
  EXPECT_EQ(CodeFromTransportError(TransportError::kTimeout), Code::kDeadlineExceeded);
  EXPECT_EQ(CodeFromTransportError(TransportError::kCancelled), Code::kCancelled);
}

TEST(HttpStatusTest, ExhaustedQuotaIsNotRetried) {
  HttpResponse r;
  r.status = 429;
  Status s = StatusFromHttp(r, "openai", "You exceeded your current quota.", "insufficient_quota");
  EXPECT_EQ(s.code(), Code::kQuotaExhausted);
  EXPECT_FALSE(IsRetryable(s.code()));
  EXPECT_EQ(s.message(),
            "HTTP 429 from openai: You exceeded your current quota. (the account behind the key "
            "has no quota or credit left: add credit or raise the quota with the provider; this "
            "is not retried)");
}

TEST(HttpStatusTest, ParsesRetryAfterInEveryForm) {
  HttpResponse r;
  r.headers = {{"retry-after", "3"}};
  EXPECT_EQ(ParseRateHint(r, 0).retry_after, milliseconds(3000));
  r.headers = {{"retry-after", "2"}, {"retry-after-ms", "250.5"}};
  EXPECT_EQ(ParseRateHint(r, 0).retry_after, milliseconds(251));
  r.headers = {{"retry-after", "Sun, 06 Nov 1994 08:49:37 GMT"}};
  EXPECT_EQ(ParseRateHint(r, 784111770).retry_after, milliseconds(7000));
  r.headers = {{"retry-after", "soon"}};
  EXPECT_FALSE(ParseRateHint(r, 0).retry_after.has_value());
  r.headers = {{"retry-after", "-5"}};
  EXPECT_FALSE(ParseRateHint(r, 0).retry_after.has_value());
  r.headers = {{"retry-after", "100000"}};  // kept as asked, for the message
  EXPECT_EQ(ParseRateHint(r, 0).retry_after, milliseconds(100'000'000));
  r.headers = {{"retry-after", "1e308"}};
  EXPECT_EQ(ParseRateHint(r, 0).retry_after, milliseconds(100'000'000'000));
}

TEST(HttpStatusTest, ParsesRateLimitHeaders) {
  HttpResponse r;
  r.headers = {{"x-ratelimit-remaining-requests", "0"},
               {"x-ratelimit-reset-requests", "6m0s"},
               {"x-ratelimit-remaining-tokens", "149984"},
               {"x-ratelimit-reset-tokens", "20ms"}};
  RateHint h = ParseRateHint(r, 0);
  EXPECT_EQ(h.remaining_requests, 0);
  EXPECT_EQ(h.reset_requests, milliseconds(360000));
  EXPECT_EQ(h.remaining_tokens, 149984);
  EXPECT_EQ(h.reset_tokens, milliseconds(20));
  r.headers = {{"anthropic-ratelimit-requests-remaining", "5"},
               {"anthropic-ratelimit-requests-reset", "2026-11-29T20:00:10Z"}};
  h = ParseRateHint(r, *ParseHttpDate("2026-11-29T20:00:00Z"));
  EXPECT_EQ(h.remaining_requests, 5);
  EXPECT_EQ(h.reset_requests, milliseconds(10000));
}

TEST(HttpStatusTest, ParsesDurationText) {
  EXPECT_EQ(ParseDurationText("1h2m3.5s"), milliseconds(3723500));
  EXPECT_EQ(ParseDurationText("1.5"), milliseconds(1500));
  EXPECT_FALSE(ParseDurationText("3 parsecs").has_value());
  EXPECT_FALSE(ParseDurationText("").has_value());
}

}  // namespace
}  // namespace structure::providers

namespace structure::providers {
namespace {

TEST(HttpStatusTest, ReadsGeminiRetryInfoFromTheErrorBody) {
  HttpResponse r;
  r.status = 429;
  r.body = R"({"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[
    {"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"13s"}]}})";
  EXPECT_EQ(ParseRateHint(r, 0).retry_after, std::chrono::milliseconds(13000));
  r.headers = {{"retry-after", "2"}};  // a header wins over the body
  EXPECT_EQ(ParseRateHint(r, 0).retry_after, std::chrono::milliseconds(2000));
}

TEST(HttpStatusTest, GeminiInvalidKeyIsUnauthenticatedDespiteHttp400) {
  HttpResponse r;
  r.status = 400;
  EXPECT_EQ(StatusFromHttp(r, "gemini", "API key not valid.", "API_KEY_INVALID").code(),
            Code::kUnauthenticated);
}

TEST(HttpStatusTest, ASchemaTooLargeRefusalOfEachProviderIsItsOwnCode) {
  for (const SchemaTooLargeError& e : SchemaTooLargeErrors()) {
    HttpResponse response;
    response.status = e.status;
    Status s = StatusFromHttp(response, e.provider, e.message, e.type);
    EXPECT_EQ(s.code(), Code::kSchemaTooLarge) << e.provider;
    EXPECT_EQ(SchemaTooLargeErrorOf(e.provider), &e);
    // Another status or error type with the same words is not that error.
    response.status = 500;
    EXPECT_NE(StatusFromHttp(response, e.provider, e.message, e.type).code(),
              Code::kSchemaTooLarge);
    response.status = e.status;
    EXPECT_NE(StatusFromHttp(response, e.provider, e.message, "other_error").code(),
              Code::kSchemaTooLarge);
  }
  HttpResponse response;
  response.status = 400;
  EXPECT_EQ(
      StatusFromHttp(response, "anthropic", "tools.0: Invalid schema", "invalid_request_error")
          .code(),
      Code::kInvalidArgument);
  EXPECT_EQ(SchemaTooLargeErrorOf("ollama"), nullptr);
}

}  // namespace
}  // namespace structure::providers
