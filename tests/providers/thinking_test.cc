// Thinking in every wire format: the request fields per provider, reasoning tokens and thinking
// parts read from replies, thinking replayed unchanged, and the default output caps.
#include "providers/thinking.h"

#include <gtest/gtest.h>

#include "providers/wire.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

Endpoint MakeEndpoint(ProviderKind kind) {
  Endpoint e;
  e.kind = kind;
  e.base_url = "http://127.0.0.1:9";
  e.api_key = "k";
  return e;
}

Json Body(const ProviderCall& call, ProviderKind kind) {
  auto req = BuildRequest(call, MakeEndpoint(kind));
  EXPECT_TRUE(req.ok()) << req.status().ToString();
  if (!req.ok()) return Json();
  auto body = ParseJson(req->body);
  EXPECT_TRUE(body.ok());
  return body.ok() ? *body : Json();
}

ProviderCall WithEffort(ProviderCall c, std::string effort) {
  c.thinking.effort = std::move(effort);
  return c;
}

ProviderCall WithBudget(ProviderCall c, int64_t budget) {
  c.thinking.budget = budget;
  return c;
}

TEST(ThinkingTest, OpenAiSendsReasoningEffortAndReadsReasoningTokens) {
  Json body = Body(WithEffort(testing::BasicCall(), "high"), ProviderKind::kOpenAi);
  EXPECT_EQ(*body.find("reasoning_effort"), Json("high"));
  EXPECT_NE(body.find("max_completion_tokens"), nullptr);
  EXPECT_EQ(Body(testing::BasicCall(), ProviderKind::kOpenAi).find("reasoning_effort"), nullptr);
  auto r = ParseReply(ProviderKind::kOpenAi, testing::Response(200, R"({"model":"o3","choices":[
    {"index":0,"message":{"role":"assistant","content":"{}"},"finish_reason":"stop"}],
    "usage":{"prompt_tokens":10,"completion_tokens":300,
             "completion_tokens_details":{"reasoning_tokens":256}}})"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->usage.output_tokens, 300);
  EXPECT_EQ(r->usage.reasoning_tokens, 256);
}

TEST(ThinkingTest, OpenRouterSendsItsReasoningObject) {
  Json effort = Body(WithEffort(testing::BasicCall(), "low"), ProviderKind::kOpenRouter);
  EXPECT_EQ(ToJson(*effort.find("reasoning")), R"({"effort":"low"})");
  EXPECT_EQ(effort.find("reasoning_effort"), nullptr);
  Json budget = Body(WithBudget(testing::BasicCall(), 2000), ProviderKind::kOpenRouter);
  EXPECT_EQ(ToJson(*budget.find("reasoning")), R"({"max_tokens":2000})");
}

TEST(ThinkingTest, AnthropicBudgetIsExtendedThinkingAndEffortIsAdaptive) {
  Json budget = Body(WithBudget(testing::BasicCall(), 4096), ProviderKind::kAnthropic);
  EXPECT_EQ(ToJson(*budget.find("thinking")), R"({"type":"enabled","budget_tokens":4096})");
  EXPECT_EQ(budget.find("output_config")->find("effort"), nullptr);
  Json adaptive = Body(WithEffort(testing::BasicCall(), "medium"), ProviderKind::kAnthropic);
  EXPECT_EQ(ToJson(*adaptive.find("thinking")), R"({"type":"adaptive"})");
  // The effort sits beside the structured-output format in one output_config.
  EXPECT_EQ(*adaptive.find("output_config")->find("effort"), Json("medium"));
  EXPECT_NE(adaptive.find("output_config")->find("format"), nullptr);
  Json off = Body(WithEffort(testing::BasicCall(), "none"), ProviderKind::kAnthropic);
  EXPECT_EQ(ToJson(*off.find("thinking")), R"({"type":"disabled"})");
}

TEST(ThinkingTest, AnthropicWithThinkingNeverForcesATool) {
  Json body = Body(WithBudget(testing::ToolCallHistory(), 2048), ProviderKind::kAnthropic);
  EXPECT_EQ(ToJson(*body.find("tool_choice")), R"({"type":"auto"})");
  Json plain = Body(testing::ToolCallHistory(), ProviderKind::kAnthropic);
  EXPECT_EQ(*plain.find("tool_choice")->find("type"), Json("any"));
}

TEST(ThinkingTest, AnthropicThinkingBlocksAreReadAndReplayedUnchangedFirst) {
  auto r = ParseReply(ProviderKind::kAnthropic, testing::Response(200, R"({"model":"claude",
    "content":[{"type":"thinking","thinking":"Let me see.","signature":"sig-1"},
               {"type":"redacted_thinking","data":"opaque"},
               {"type":"tool_use","id":"toolu_1","name":"submit_person","input":{"name":"Ada"}}],
    "stop_reason":"tool_use","usage":{"input_tokens":5,"output_tokens":50,
                                      "output_tokens_details":{"thinking_tokens":40}}})"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->content, "");
  ASSERT_EQ(r->thoughts.size(), 2u);
  EXPECT_EQ(r->thoughts[0].text, "Let me see.");
  EXPECT_EQ(r->thoughts[0].signature, "sig-1");
  EXPECT_TRUE(r->thoughts[1].redacted);
  EXPECT_EQ(r->usage.reasoning_tokens, 40);

  ProviderCall c = testing::ToolCallHistory();
  c.thinking.budget = 2048;
  c.turns[1].thoughts = r->thoughts;
  Json body = Body(c, ProviderKind::kAnthropic);
  const auto& blocks = body.find("messages")->as_array()[1].find("content")->as_array();
  ASSERT_EQ(blocks.size(), 3u);
  EXPECT_EQ(ToJson(blocks[0]),
            R"({"type":"thinking","thinking":"Let me see.","signature":"sig-1"})");
  EXPECT_EQ(ToJson(blocks[1]), R"({"type":"redacted_thinking","data":"opaque"})");
  EXPECT_EQ(*blocks[2].find("type"), Json("tool_use"));
}

TEST(ThinkingTest, GeminiThinkingConfigTakesABudgetOrALevel) {
  Json budget = Body(WithBudget(testing::BasicCall(), 1024), ProviderKind::kGemini);
  EXPECT_EQ(ToJson(*budget.find("generationConfig")->find("thinkingConfig")),
            R"({"thinkingBudget":1024})");
  Json level = Body(WithEffort(testing::BasicCall(), "low"), ProviderKind::kGemini);
  EXPECT_EQ(ToJson(*level.find("generationConfig")->find("thinkingConfig")),
            R"({"thinkingLevel":"low"})");
  Json off = Body(WithEffort(testing::BasicCall(), "none"), ProviderKind::kGemini);
  EXPECT_EQ(ToJson(*off.find("generationConfig")->find("thinkingConfig")),
            R"({"thinkingBudget":0})");
  EXPECT_EQ(Body(testing::BasicCall(), ProviderKind::kGemini)
                .find("generationConfig")
                ->find("thinkingConfig"),
            nullptr);
}

TEST(ThinkingTest, GeminiThoughtPartsAreNeverTheAnswerAndSignaturesAreKept) {
  auto r = ParseReply(ProviderKind::kGemini, testing::Response(200, R"({"candidates":[{
    "content":{"role":"model","parts":[
      {"text":"Thinking about it.","thought":true},
      {"functionCall":{"name":"submit_person","args":{"name":"Ada","age":-1}},
       "thoughtSignature":"CiQBsig=="}]},
    "finishReason":"STOP"}],
    "usageMetadata":{"promptTokenCount":10,"candidatesTokenCount":20,"thoughtsTokenCount":70}})"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->content, "");
  ASSERT_EQ(r->thoughts.size(), 1u);
  ASSERT_EQ(r->tool_calls.size(), 1u);
  EXPECT_EQ(r->tool_calls[0].signature, "CiQBsig==");
  EXPECT_EQ(r->usage.reasoning_tokens, 70);
  EXPECT_EQ(r->usage.output_tokens, 90);

  auto text = ParseReply(ProviderKind::kGemini, testing::Response(200, R"({"candidates":[{
    "content":{"role":"model","parts":[{"text":"{\"a\":1}","thoughtSignature":"txt-sig"}]},
    "finishReason":"STOP"}]})"));
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->content, R"({"a":1})");
  EXPECT_EQ(text->text_signature, "txt-sig");
}

TEST(ThinkingTest, GeminiReplaysEveryPartWithItsSignatureExactly) {
  ProviderCall c = testing::ToolCallHistory();
  c.turns[1].tool_calls[0].signature = "CiQBsig==";
  c.turns[1].text = "Submitting.";
  c.turns[1].text_signature = "txt-sig";
  c.turns[1].thoughts.push_back({"Thinking about it.", "", false});
  Json body = Body(c, ProviderKind::kGemini);
  const auto& parts = body.find("contents")->as_array()[1].find("parts")->as_array();
  ASSERT_EQ(parts.size(), 3u) << ToJson(body);
  EXPECT_EQ(ToJson(parts[0]), R"({"text":"Thinking about it.","thought":true})");
  EXPECT_EQ(ToJson(parts[1]), R"({"text":"Submitting.","thoughtSignature":"txt-sig"})");
  EXPECT_EQ(*parts[2].find("thoughtSignature"), Json("CiQBsig=="));
  EXPECT_NE(parts[2].find("functionCall"), nullptr);
}

TEST(ThinkingTest, OllamaSendsThink) {
  EXPECT_EQ(*Body(WithEffort(testing::BasicCall(), "high"), ProviderKind::kOllama).find("think"),
            Json("high"));
  EXPECT_EQ(*Body(WithEffort(testing::BasicCall(), "none"), ProviderKind::kOllama).find("think"),
            Json(false));
}

TEST(ThinkingTest, DefaultOutputCapLeavesRoomForTheAnswerBeyondTheThinking) {
  Thinking none;
  EXPECT_EQ(OutputCap(ProviderKind::kOpenAi, "gpt-4o-mini", none, 2048, 0), 2048);
  EXPECT_EQ(OutputCap(ProviderKind::kOpenAi, "gpt-5-mini", none, 2048, 0), 2048 + 8192);
  EXPECT_EQ(OutputCap(ProviderKind::kGemini, "gemini-2.5-flash", none, 2048, 0), 2048 + 8192);
  EXPECT_EQ(OutputCap(ProviderKind::kAnthropic, "claude-sonnet-4-5", none, 2048, 0), 2048);
  Thinking budget;
  budget.budget = 4096;
  EXPECT_EQ(OutputCap(ProviderKind::kAnthropic, "claude-sonnet-4-5", budget, 2048, 0), 2048 + 4096);
  Thinking high;
  high.effort = "high";
  EXPECT_EQ(OutputCap(ProviderKind::kOpenAi, "o3", high, 2048, 0), 2048 + 16384);
  Thinking off;
  off.effort = "none";
  EXPECT_EQ(OutputCap(ProviderKind::kOpenAi, "gpt-5.1", off, 2048, 0), 2048);
  Thinking dynamic;
  dynamic.budget = -1;
  EXPECT_EQ(OutputCap(ProviderKind::kGemini, "gemini-3-pro", dynamic, 2048, 0), 2048 + 8192);
  EXPECT_EQ(OutputCap(ProviderKind::kOpenAi, "o3", high, 2048, 700), 700);  // configured wins
}

}  // namespace
}  // namespace structure::providers
