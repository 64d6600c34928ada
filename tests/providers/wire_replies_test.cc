// Every recorded reply payload, through the wire format of its provider: finish kind,
// content, usage, and for error bodies the Status code and whether it is retryable.
// A spent quota in each provider's form (kQuotaExhausted, never retried): OpenAI's 429
// insufficient_quota; Anthropic's documented 402 billing_error and the 400 its users report for
// a low credit balance (anthropics/anthropic-sdk-typescript issue 618); Gemini's 429
// RESOURCE_EXHAUSTED with a google.rpc.QuotaFailure naming a per-day quota, beside the
// per-minute one that stays a rate limit (the form google-gemini/gemini-cli issue 8437 shows).
#include <gtest/gtest.h>

#include "providers/wire.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

struct ReplyCase {
  ProviderKind kind;
  const char* file;
  int status;
  Code code;             // expected status code (kOk = parsed reply)
  FinishKind finish;     // when kOk
  const char* content;   // expected content, or nullptr to skip
  int64_t input_tokens;  // when kOk; -1 to skip
};

const char* Dir(ProviderKind k) {
  switch (k) {
    case ProviderKind::kOpenAi:
      return "openai";
    case ProviderKind::kAnthropic:
      return "anthropic";
    case ProviderKind::kGemini:
      return "gemini";
    case ProviderKind::kOllama:
      return "ollama";
    case ProviderKind::kOpenAiCompat:
    case ProviderKind::kVllm:
    case ProviderKind::kLlamaCpp:
    case ProviderKind::kLlamafile:
      return "openai_compat";
    case ProviderKind::kOpenRouter:
      return "openrouter";
  }
  return "";
}

constexpr const char* kAnswer = R"({"name":"Ada","age":36})";

std::vector<ReplyCase> Cases() {
  std::vector<ReplyCase> cases;
  for (ProviderKind k :
       {ProviderKind::kOpenAi, ProviderKind::kOpenAiCompat, ProviderKind::kVllm,
        ProviderKind::kLlamaCpp, ProviderKind::kLlamafile, ProviderKind::kOpenRouter}) {
    cases.insert(
        cases.end(),
        {
            {k, "reply_success.json", 200, Code::kOk, FinishKind::kStop, kAnswer, 120},
            {k, "reply_refusal.json", 200, Code::kOk, FinishKind::kRefusal, "", 120},
            {k, "reply_truncated.json", 200, Code::kOk, FinishKind::kLength, R"({"name":"Ad)", 120},
            {k, "reply_tool_call.json", 200, Code::kOk, FinishKind::kToolUse, "", 150},
            {k, "reply_content_filter.json", 200, Code::kOk, FinishKind::kSafety, "", 120},
            {k, "error_400_schema.json", 400, Code::kInvalidArgument, {}, nullptr, -1},
            {k, "error_401.json", 401, Code::kUnauthenticated, {}, nullptr, -1},
            {k, "error_429.json", 429, Code::kResourceExhausted, {}, nullptr, -1},
            {k, "error_429_quota.json", 429, Code::kQuotaExhausted, {}, nullptr, -1},
            {k, "error_500.json", 500, Code::kUnavailable, {}, nullptr, -1},
        });
  }
  const auto a = ProviderKind::kAnthropic;
  cases.insert(
      cases.end(),
      {
          {a, "reply_success.json", 200, Code::kOk, FinishKind::kStop, kAnswer, 100},
          {a, "reply_refusal.json", 200, Code::kOk, FinishKind::kRefusal, nullptr, 100},
          {a, "reply_truncated.json", 200, Code::kOk, FinishKind::kLength, R"({"name":"Ad)", 100},
          {a, "reply_tool_call.json", 200, Code::kOk, FinishKind::kToolUse, nullptr, 150},
          {a, "error_400_schema.json", 400, Code::kInvalidArgument, {}, nullptr, -1},
          {a, "error_401.json", 401, Code::kUnauthenticated, {}, nullptr, -1},
          {a, "error_429.json", 429, Code::kResourceExhausted, {}, nullptr, -1},
          {a, "error_402_billing.json", 402, Code::kQuotaExhausted, {}, nullptr, -1},
          {a, "error_400_credit.json", 400, Code::kQuotaExhausted, {}, nullptr, -1},
          {a, "error_500.json", 500, Code::kUnavailable, {}, nullptr, -1},
          {a, "error_529.json", 529, Code::kUnavailable, {}, nullptr, -1},
      });
  const auto g = ProviderKind::kGemini;
  cases.insert(
      cases.end(),
      {
          {g, "reply_success.json", 200, Code::kOk, FinishKind::kStop, kAnswer, 90},
          {g, "reply_truncated.json", 200, Code::kOk, FinishKind::kLength, R"({"name":"Ad)", 90},
          {g, "reply_safety.json", 200, Code::kOk, FinishKind::kSafety, "", 90},
          {g, "reply_prompt_blocked.json", 200, Code::kOk, FinishKind::kSafety, "", 90},
          {g, "reply_tool_call.json", 200, Code::kOk, FinishKind::kToolUse, "", 90},
          {g, "error_400_schema.json", 400, Code::kInvalidArgument, {}, nullptr, -1},
          {g, "error_401.json", 401, Code::kUnauthenticated, {}, nullptr, -1},
          {g, "error_429.json", 429, Code::kResourceExhausted, {}, nullptr, -1},
          {g, "error_429_per_minute.json", 429, Code::kResourceExhausted, {}, nullptr, -1},
          {g, "error_429_daily_quota.json", 429, Code::kQuotaExhausted, {}, nullptr, -1},
          {g, "error_500.json", 500, Code::kUnavailable, {}, nullptr, -1},
      });
  const auto o = ProviderKind::kOllama;
  cases.insert(
      cases.end(),
      {
          {o, "reply_success.json", 200, Code::kOk, FinishKind::kStop, kAnswer, 80},
          {o, "reply_truncated.json", 200, Code::kOk, FinishKind::kLength, R"({"name":"Ad)", 80},
          {o, "reply_tool_call.json", 200, Code::kOk, FinishKind::kToolUse, "", 80},
          {o, "error_400_schema.json", 400, Code::kInvalidArgument, {}, nullptr, -1},
          {o, "error_500.json", 500, Code::kUnavailable, {}, nullptr, -1},
      });
  return cases;
}

TEST(WireRepliesTest, EveryRecordedPayloadMapsToItsFinishOrStatus) {
  for (const ReplyCase& c : Cases()) {
    std::string where = std::string(Dir(c.kind)) + "/" + c.file;
    auto r = ParseReply(c.kind, testing::Response(c.status, testing::ReadData(where)));
    if (c.code != Code::kOk) {
      EXPECT_EQ(r.status().code(), c.code) << where << ": " << r.status().ToString();
      EXPECT_NE(r.status().message().find(std::to_string(c.status)), std::string::npos) << where;
      continue;
    }
    ASSERT_TRUE(r.ok()) << where << ": " << r.status().ToString();
    EXPECT_EQ(r->finish, c.finish) << where;
    if (c.content) {
      EXPECT_EQ(r->content, c.content) << where;
    }
    if (c.input_tokens >= 0) {
      EXPECT_EQ(r->usage.input_tokens, c.input_tokens) << where;
    }
    if (c.finish == FinishKind::kToolUse) {
      ASSERT_EQ(r->tool_calls.size(), 1u) << where;
      EXPECT_EQ(ParseJson(r->tool_calls[0].arguments).value(), ParseJson(kAnswer).value()) << where;
      EXPECT_FALSE(r->tool_calls[0].id.empty()) << where;
    }
    if (c.finish == FinishKind::kRefusal) {
      EXPECT_FALSE(r->refusal.empty()) << where;
      EXPECT_EQ(FinishStatus(*r).code(), Code::kFailedPrecondition) << where;
    }
  }
}

// Prompt-cache counts, read the way each provider reports them; input_tokens stays the whole
// prompt (Anthropic's input_tokens alone is only what follows the cache breakpoint).
TEST(WireRepliesTest, CacheReadsAndWritesAreReadFromEachProvidersUsage) {
  struct CacheCase {
    ProviderKind kind;
    const char* file;
    int64_t input, cached, written;
  };
  const CacheCase cases[] = {
      {ProviderKind::kOpenAi, "reply_cached.json", 3200, 3072, 0},
      {ProviderKind::kOpenAiCompat, "reply_cached.json", 3200, 3072, 0},
      {ProviderKind::kOpenRouter, "reply_cached.json", 3200, 0, 3100},
      {ProviderKind::kAnthropic, "reply_cached.json", 3140, 3100, 0},
      {ProviderKind::kAnthropic, "reply_cache_write.json", 3140, 0, 3100},
      {ProviderKind::kGemini, "reply_cached.json", 3200, 3072, 0},
      // Replies without cache fields count 0.
      {ProviderKind::kOpenAi, "reply_success.json", 120, 0, 0},
      {ProviderKind::kGemini, "reply_success.json", 90, 0, 0},
      {ProviderKind::kOllama, "reply_success.json", 80, 0, 0},
  };
  for (const CacheCase& c : cases) {
    std::string where = std::string(Dir(c.kind)) + "/" + c.file;
    auto r = ParseReply(c.kind, testing::Response(200, testing::ReadData(where)));
    ASSERT_TRUE(r.ok()) << where << ": " << r.status().ToString();
    EXPECT_EQ(r->usage.input_tokens, c.input) << where;
    EXPECT_EQ(r->usage.cached_input_tokens, c.cached) << where;
    EXPECT_EQ(r->usage.cache_write_tokens, c.written) << where;
  }
}

TEST(WireRepliesTest, UntrustedBodiesNeverCrashAndSayWhatWasWrong) {
  const char* bodies[] = {"",
                          "not json",
                          "[1,2]",
                          "{\"choices\":7}",
                          "{\"candidates\":[1]}",
                          "{\"content\":\"x\"}",
                          "{\"message\":[]}",
                          "{\"choices\":[{}]}",
                          "{\"error\":{\"code\":\"x\"}}",
                          "{\"x\":"};
  for (ProviderKind k :
       {ProviderKind::kOpenAi, ProviderKind::kAnthropic, ProviderKind::kGemini,
        ProviderKind::kOllama, ProviderKind::kOpenAiCompat, ProviderKind::kOpenRouter}) {
    for (const char* b : bodies) {
      auto r = ParseReply(k, testing::Response(200, b));
      if (!r.ok()) {
        EXPECT_FALSE(r.status().message().empty());
        EXPECT_NE(r.status().code(), Code::kOk);
      }
    }
    std::string deep(100000, '[');
    auto r = ParseReply(k, testing::Response(200, deep));
    EXPECT_EQ(r.status().code(), Code::kUnavailable) << Dir(k);
  }
}

TEST(WireRepliesTest, TransportFailuresMapToRetryableCodes) {
  HttpResponse reset;
  reset.error = TransportError::kReset;
  reset.error_text = "Connection reset by peer";
  auto r = ParseReply(ProviderKind::kOpenAi, reset);
  EXPECT_EQ(r.status().code(), Code::kUnavailable);
  EXPECT_NE(r.status().message().find("reset"), std::string::npos);
  HttpResponse timeout;
  timeout.error = TransportError::kTimeout;
  EXPECT_EQ(ParseReply(ProviderKind::kGemini, timeout).status().code(), Code::kDeadlineExceeded);
}

}  // namespace
}  // namespace structure::providers
