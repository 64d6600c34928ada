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

// The error BuildRequest gives, or "" when it builds.
std::string BuildError(const ProviderCall& call, ProviderKind kind) {
  auto req = BuildRequest(call, MakeEndpoint(kind));
  return req.ok() ? "" : req.status().message();
}

ProviderCall WithEffort(ProviderCall c, std::string effort, std::string model = "test-model") {
  c.thinking.effort = std::move(effort);
  c.model = std::move(model);
  return c;
}

ProviderCall WithBudget(ProviderCall c, int64_t budget, std::string model = "test-model") {
  c.thinking.budget = budget;
  c.model = std::move(model);
  return c;
}

ProviderCall Model(ProviderCall c, std::string model) {
  c.model = std::move(model);
  return c;
}

const Json* ThinkingConfig(const Json& body) {
  return body.find("generationConfig")->find("thinkingConfig");
}

TEST(ThinkingTest, OpenAiSendsReasoningEffortAndReadsReasoningTokens) {
  Json body = Body(WithEffort(testing::BasicCall(), "high", "o3"), ProviderKind::kOpenAi);
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

// Each OpenAI family takes its own levels: gpt-4o none at all (it answered 400 "Unsupported
// parameter: 'reasoning_effort'"), gpt-5 minimal but not none, gpt-5.1 none but not minimal.
TEST(ThinkingTest, OpenAiLevelsAreTheFamilysOwn) {
  EXPECT_EQ(
      BuildError(WithEffort(testing::BasicCall(), "low", "gpt-4o-mini"), ProviderKind::kOpenAi),
      "gpt-4o-mini takes no thinking parameter (it does not think), not reasoning_effort "
      "'low'");
  EXPECT_EQ(*Body(WithEffort(testing::BasicCall(), "minimal", "gpt-5-mini"), ProviderKind::kOpenAi)
                 .find("reasoning_effort"),
            Json("minimal"));
  EXPECT_EQ(BuildError(WithEffort(testing::BasicCall(), "none", "gpt-5"), ProviderKind::kOpenAi),
            "gpt-5 cannot turn thinking off (reasoning_effort 'none'); it takes reasoning_effort "
            "minimal, low, medium or high");
  EXPECT_EQ(*Body(WithEffort(testing::BasicCall(), "none", "gpt-5.1"), ProviderKind::kOpenAi)
                 .find("reasoning_effort"),
            Json("none"));
  EXPECT_NE(
      BuildError(WithEffort(testing::BasicCall(), "minimal", "gpt-5.1"), ProviderKind::kOpenAi)
          .find("takes reasoning_effort none, low, medium or high"),
      std::string::npos);
  // gpt-5.2 and later go to the Responses API: reasoning {effort}.
  EXPECT_EQ(*Body(WithEffort(testing::BasicCall(), "xhigh", "gpt-5.2"), ProviderKind::kOpenAi)
                 .find("reasoning")
                 ->find("effort"),
            Json("xhigh"));
  EXPECT_EQ(
      BuildError(WithEffort(testing::BasicCall(), "minimal", "o4-mini"), ProviderKind::kOpenAi),
      "o4-mini takes reasoning_effort low, medium or high, not reasoning_effort 'minimal'");
}

// Final-tool mode asks for one call at a time; o-series models refuse the field (400
// "Unsupported parameter: 'parallel_tool_calls' is not supported with this model"), live and
// through OpenRouter. Before, every model got `parallel_tool_calls: false`.
TEST(ThinkingTest, ParallelToolCallsOnlyForFamiliesThatTakeIt) {
  for (const char* model : {"o1", "o3", "o3-mini", "o4-mini-2025-04-16"}) {
    Json body = Body(Model(testing::ToolCallHistory(), model), ProviderKind::kOpenAi);
    EXPECT_EQ(body.find("parallel_tool_calls"), nullptr) << model;
    EXPECT_NE(body.find("tools"), nullptr) << model;
  }
  EXPECT_EQ(Body(Model(testing::ToolCallHistory(), "openai/o3-mini"), ProviderKind::kOpenRouter)
                .find("parallel_tool_calls"),
            nullptr);
  for (const char* model : {"gpt-4o", "gpt-4.1", "gpt-5"}) {
    EXPECT_EQ(*Body(Model(testing::ToolCallHistory(), model), ProviderKind::kOpenAi)
                   .find("parallel_tool_calls"),
              Json(false))
        << model;
  }
  // o-series and gpt-5 take only the default temperature: it is left out.
  EXPECT_EQ(Body(Model(testing::BasicCall(), "o3"), ProviderKind::kOpenAi).find("temperature"),
            nullptr);
  EXPECT_EQ(*Body(Model(testing::BasicCall(), "gpt-4o"), ProviderKind::kOpenAi).find("temperature"),
            Json(0.0));
}

TEST(ThinkingTest, OpenRouterSendsItsReasoningObject) {
  Json effort = Body(WithEffort(testing::BasicCall(), "low"), ProviderKind::kOpenRouter);
  EXPECT_EQ(ToJson(*effort.find("reasoning")), R"({"effort":"low"})");
  EXPECT_EQ(effort.find("reasoning_effort"), nullptr);
  Json budget = Body(WithBudget(testing::BasicCall(), 2000), ProviderKind::kOpenRouter);
  EXPECT_EQ(ToJson(*budget.find("reasoning")), R"({"max_tokens":2000})");
}

// Sonnet 4.5, Haiku 4.5 and Opus 4.5 take only budget_tokens (an effort goes as a budget; before,
// it went as adaptive thinking, a 400); the 4.6 models take adaptive thinking with
// output_config.effort; Opus 4.7 and later only that (budget_tokens is a 400).
TEST(ThinkingTest, AnthropicSendsTheThinkingFormTheFamilyTakes) {
  Json budget =
      Body(WithBudget(testing::BasicCall(), 4096, "claude-sonnet-4-5"), ProviderKind::kAnthropic);
  EXPECT_EQ(ToJson(*budget.find("thinking")), R"({"type":"enabled","budget_tokens":4096})");
  EXPECT_EQ(budget.find("output_config")->find("effort"), nullptr);
  for (const char* model : {"claude-sonnet-4-5-20250929", "claude-haiku-4-5", "claude-opus-4-1"}) {
    Json effort = Body(WithEffort(testing::BasicCall(), "medium", model), ProviderKind::kAnthropic);
    EXPECT_EQ(ToJson(*effort.find("thinking")), R"({"type":"enabled","budget_tokens":8192})")
        << model;
    EXPECT_EQ(effort.find("output_config")->find("effort"), nullptr) << model;
  }
  for (const char* model : {"claude-sonnet-4-6", "claude-opus-4-6", "claude-opus-4-7"}) {
    Json adaptive =
        Body(WithEffort(testing::BasicCall(), "medium", model), ProviderKind::kAnthropic);
    EXPECT_EQ(ToJson(*adaptive.find("thinking")), R"({"type":"adaptive"})") << model;
    // The effort sits beside the structured-output format in one output_config.
    EXPECT_EQ(*adaptive.find("output_config")->find("effort"), Json("medium")) << model;
    EXPECT_NE(adaptive.find("output_config")->find("format"), nullptr) << model;
  }
  EXPECT_EQ(BuildError(WithBudget(testing::BasicCall(), 4096, "claude-opus-4-7"),
                       ProviderKind::kAnthropic),
            "claude-opus-4-7 takes reasoning_effort low, medium, high, xhigh or max, not "
            "thinking_budget 4096");
  // Sonnet 4.6 takes max but no xhigh (that starts with Opus 4.7): xhigh goes as a budget, which
  // the family also takes, never as the effort level it would refuse.
  Json xhigh = Body(WithEffort(testing::BasicCall(), "xhigh", "claude-sonnet-4-6"),
                    ProviderKind::kAnthropic);
  EXPECT_EQ(ToJson(xhigh).find("xhigh"), std::string::npos) << ToJson(xhigh);
  EXPECT_EQ(*xhigh.find("thinking")->find("type"), Json("enabled")) << ToJson(xhigh);
  Json off =
      Body(WithEffort(testing::BasicCall(), "none", "claude-sonnet-4-5"), ProviderKind::kAnthropic);
  EXPECT_EQ(ToJson(*off.find("thinking")), R"({"type":"disabled"})");
  EXPECT_NE(BuildError(WithEffort(testing::BasicCall(), "none", "claude-fable-5"),
                       ProviderKind::kAnthropic)
                .find("claude-fable-5 cannot turn thinking off"),
            std::string::npos);
  // Opus 4.7 refuses type "disabled": "none" leaves `thinking` out, the documented way.
  Json omitted =
      Body(WithEffort(testing::BasicCall(), "none", "claude-opus-4-7"), ProviderKind::kAnthropic);
  EXPECT_EQ(omitted.find("thinking"), nullptr) << ToJson(omitted);
  EXPECT_EQ(ToJson(omitted).find("effort"), std::string::npos) << ToJson(omitted);
  // Claude 3.5 does not think; "none" has nothing to turn off.
  EXPECT_EQ(Body(WithEffort(testing::BasicCall(), "none", "claude-3-5-haiku-20241022"),
                 ProviderKind::kAnthropic)
                .find("thinking"),
            nullptr);
}

TEST(ThinkingTest, AnthropicWithThinkingNeverForcesATool) {
  Json body = Body(WithBudget(testing::ToolCallHistory(), 2048, "claude-sonnet-4-5"),
                   ProviderKind::kAnthropic);
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
  c.model = "claude-sonnet-4-5";
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

// Gemini 2.5 takes thinkingBudget (an effort goes as Google's budget for it; before, it went as
// thinkingLevel, a Gemini 3 field, in lower case); Gemini 3 takes thinkingLevel in the API's
// upper-case enum and cannot turn thinking off (before, "none" went as thinkingBudget 0), and
// 3 Pro takes only LOW and HIGH (before, "minimal" went to it).
TEST(ThinkingTest, GeminiSendsABudgetTo25AndAnUpperCaseLevelTo3) {
  EXPECT_EQ(ToJson(*ThinkingConfig(Body(WithBudget(testing::BasicCall(), 1024, "gemini-2.5-flash"),
                                        ProviderKind::kGemini))),
            R"({"thinkingBudget":1024})");
  EXPECT_EQ(ToJson(*ThinkingConfig(Body(WithEffort(testing::BasicCall(), "low", "gemini-2.5-flash"),
                                        ProviderKind::kGemini))),
            R"({"thinkingBudget":1024})");
  EXPECT_EQ(ToJson(*ThinkingConfig(Body(WithEffort(testing::BasicCall(), "high", "gemini-2.5-pro"),
                                        ProviderKind::kGemini))),
            R"({"thinkingBudget":24576})");
  EXPECT_EQ(
      ToJson(*ThinkingConfig(Body(WithEffort(testing::BasicCall(), "none", "gemini-2.5-flash"),
                                  ProviderKind::kGemini))),
      R"({"thinkingBudget":0})");
  EXPECT_EQ(
      BuildError(WithEffort(testing::BasicCall(), "none", "gemini-2.5-pro"), ProviderKind::kGemini),
      "gemini-2.5-pro cannot turn thinking off (reasoning_effort 'none'); it takes "
      "thinking_budget 128..32768 or -1 (dynamic)");
  EXPECT_EQ(
      ToJson(*ThinkingConfig(Body(WithEffort(testing::BasicCall(), "low", "gemini-3-flash-preview"),
                                  ProviderKind::kGemini))),
      R"({"thinkingLevel":"LOW"})");
  EXPECT_EQ(ToJson(*ThinkingConfig(
                Body(WithEffort(testing::BasicCall(), "minimal", "gemini-3-flash-preview"),
                     ProviderKind::kGemini))),
            R"({"thinkingLevel":"MINIMAL"})");
  EXPECT_EQ(BuildError(WithEffort(testing::BasicCall(), "minimal", "gemini-3-pro-preview"),
                       ProviderKind::kGemini),
            "gemini-3-pro-preview takes reasoning_effort low or high, not reasoning_effort "
            "'minimal'");
  EXPECT_NE(BuildError(WithEffort(testing::BasicCall(), "none", "gemini-3-pro-preview"),
                       ProviderKind::kGemini)
                .find("cannot turn thinking off"),
            std::string::npos);
  EXPECT_NE(BuildError(WithBudget(testing::BasicCall(), 2048, "gemini-3-pro-preview"),
                       ProviderKind::kGemini),
            "");
  EXPECT_NE(BuildError(WithEffort(testing::BasicCall(), "low", "gemini-2.0-flash"),
                       ProviderKind::kGemini),
            "");
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

// A level for gpt-oss (which cannot turn thinking off), true or false for the others.
TEST(ThinkingTest, OllamaSendsThinkAsTheModelTakesIt) {
  EXPECT_EQ(*Body(WithEffort(testing::BasicCall(), "high", "gpt-oss:20b"), ProviderKind::kOllama)
                 .find("think"),
            Json("high"));
  EXPECT_NE(
      BuildError(WithEffort(testing::BasicCall(), "none", "gpt-oss:20b"), ProviderKind::kOllama),
      "");
  EXPECT_EQ(*Body(WithEffort(testing::BasicCall(), "high", "qwen3:8b"), ProviderKind::kOllama)
                 .find("think"),
            Json(true));
  EXPECT_EQ(*Body(WithEffort(testing::BasicCall(), "none", "qwen3:8b"), ProviderKind::kOllama)
                 .find("think"),
            Json(false));
  // A model the table does not know may not think: Ollama answers 400 to `think` there, so
  // nothing is sent, and a level is refused before any call (config check says the same).
  EXPECT_EQ(Body(WithEffort(testing::BasicCall(), "none"), ProviderKind::kOllama).find("think"),
            nullptr);
  EXPECT_EQ(Body(Model(testing::BasicCall(), "llama3.1:8b"), ProviderKind::kOllama).find("think"),
            nullptr);
  EXPECT_EQ(
      BuildError(WithEffort(testing::BasicCall(), "high", "llama3.1:8b"), ProviderKind::kOllama),
      "llama3.1:8b takes no thinking parameter (it does not think), not reasoning_effort 'high'");
  EXPECT_EQ(*Body(WithEffort(testing::BasicCall(), "low", "deepseek-r1:8b"), ProviderKind::kOllama)
                 .find("think"),
            Json(true));
}

int64_t Cap(ProviderKind kind, const std::string& model, const Thinking& t,
            int64_t configured = 0) {
  return OutputCap(FamilyFor(MakeEndpoint(kind), model), model, t, 2048, configured);
}

TEST(ThinkingTest, DefaultOutputCapLeavesRoomForTheAnswerBeyondTheThinking) {
  Thinking none;
  EXPECT_EQ(Cap(ProviderKind::kOpenAi, "gpt-4o-mini", none), 2048);
  EXPECT_EQ(Cap(ProviderKind::kOpenAi, "gpt-5-mini", none), 2048 + 8192);
  EXPECT_EQ(Cap(ProviderKind::kOpenAi, "gpt-5.1", none), 2048);  // gpt-5.1 defaults to none
  EXPECT_EQ(Cap(ProviderKind::kOpenAi, "gpt-5.4", none), 2048);  // so do 5.2 to 5.4
  // gpt-5.5 and later reason at medium by default: the cap leaves room for it.
  EXPECT_EQ(Cap(ProviderKind::kOpenAi, "gpt-5.6", none), 2048 + 8192);
  EXPECT_EQ(Cap(ProviderKind::kOpenAi, "gpt-5.5-mini", none), 2048 + 8192);
  EXPECT_EQ(Cap(ProviderKind::kOllama, "gpt-oss:20b", none), 2048 + 8192);
  EXPECT_EQ(Cap(ProviderKind::kOllama, "llama3.1:8b", none), 2048);
  EXPECT_EQ(Cap(ProviderKind::kGemini, "gemini-2.5-flash", none), 2048 + 8192);
  EXPECT_EQ(Cap(ProviderKind::kGemini, "gemini-2.5-flash-lite", none), 2048);
  EXPECT_EQ(Cap(ProviderKind::kAnthropic, "claude-sonnet-4-5", none), 2048);
  Thinking budget;
  budget.budget = 4096;
  EXPECT_EQ(Cap(ProviderKind::kAnthropic, "claude-sonnet-4-5", budget), 2048 + 4096);
  Thinking high;
  high.effort = "high";
  EXPECT_EQ(Cap(ProviderKind::kOpenAi, "o3", high), 2048 + 16384);
  EXPECT_EQ(Cap(ProviderKind::kGemini, "gemini-2.5-flash", high), 2048 + 24576);  // its budget
  Thinking off;
  off.effort = "none";
  EXPECT_EQ(Cap(ProviderKind::kOpenAi, "gpt-5.1", off), 2048);
  EXPECT_EQ(Cap(ProviderKind::kOpenAi, "gpt-5.6", off), 2048);
  EXPECT_EQ(Cap(ProviderKind::kAnthropic, "claude-opus-4-7", off), 2048);
  Thinking dynamic;
  dynamic.budget = -1;
  EXPECT_EQ(Cap(ProviderKind::kGemini, "gemini-2.5-pro", dynamic), 2048 + 8192);
  EXPECT_EQ(Cap(ProviderKind::kOpenAi, "o3", high, 700), 700);  // configured wins
  // Never above what the model writes.
  EXPECT_EQ(OutputCap(FamilyFor(MakeEndpoint(ProviderKind::kGemini), "gemini-2.0-flash"),
                      "gemini-2.0-flash", none, 20000, 0),
            8192);
}

}  // namespace
}  // namespace structure::providers
