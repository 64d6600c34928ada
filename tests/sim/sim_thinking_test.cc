// Thinking in the simulator, per provider: reasoning-token usage, thinking blocks and thought
// signatures when the request or the model asks for thinking, thinking that uses the whole cap,
// and replays rejected the way each provider rejects them.
#include <gtest/gtest.h>

#include "tests/sim/sim_test_client.h"

namespace structure::sim {
namespace {

using testing::Post;
using testing::TestJson;

std::string ErrorMessage(const testing::HttpReply& r) {
  const Json* err = r.json.find("error");
  const Json* m = err && err->is_object() ? err->find("message") : nullptr;
  return m && m->is_string() ? m->as_string() : "";
}

// --- OpenAI ---

TEST(SimThinkingTest, OpenAiReportsReasoningTokensForReasoningEffort) {
  auto sim = testing::StartSim();
  Json req = TestJson("openai_json_schema.json");
  req.set("model", "o4-mini");
  req.set("reasoning_effort", "high");
  auto r = Post(sim->port(), "/v1/chat/completions", testing::OpenAiHeaders(), ToJson(req));
  ASSERT_EQ(r.status, 200) << r.body;
  const Json& usage = *r.json.find("usage");
  EXPECT_EQ(usage.find("completion_tokens_details")->find("reasoning_tokens")->as_int(), 4096);
  EXPECT_GT(usage.find("completion_tokens")->as_int(), 4096);
  req.erase("reasoning_effort");
  req.set("model", "gpt-4o-2024-08-06");  // not a reasoning model
  auto plain = Post(sim->port(), "/v1/chat/completions", testing::OpenAiHeaders(), ToJson(req));
  EXPECT_EQ(plain.json.find("usage")
                ->find("completion_tokens_details")
                ->find("reasoning_tokens")
                ->as_int(),
            0);
}

TEST(SimThinkingTest, OpenAiReasoningThatUsesTheCapLeavesNoAnswer) {
  auto sim = testing::StartSim();
  Json req = TestJson("openai_json_schema.json");
  req.set("model", "o3");
  req.set("reasoning_effort", "high");
  req.set("max_completion_tokens", 300);
  auto r = Post(sim->port(), "/v1/chat/completions", testing::OpenAiHeaders(), ToJson(req));
  ASSERT_EQ(r.status, 200) << r.body;
  const Json& choice = r.json.find("choices")->as_array().at(0);
  EXPECT_EQ(choice.find("finish_reason")->as_string(), "length");
  EXPECT_EQ(choice.find("message")->find("content")->as_string(), "");
  EXPECT_EQ(r.json.find("usage")->find("completion_tokens")->as_int(), 300);
  EXPECT_EQ(
      r.json.find("usage")->find("completion_tokens_details")->find("reasoning_tokens")->as_int(),
      300);
}

TEST(SimThinkingTest, OpenAiReasoningModelsRefuseWhatTheyDoNotTake) {
  auto sim = testing::StartSim();
  Json req = TestJson("openai_json_schema.json");
  req.set("model", "gpt-5-mini");
  req.set("max_tokens", 100);
  auto r = Post(sim->port(), "/v1/chat/completions", testing::OpenAiHeaders(), ToJson(req));
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(ErrorMessage(r).find("Use 'max_completion_tokens' instead"), std::string::npos);
  req.erase("max_tokens");
  req.set("reasoning_effort", "turbo");
  auto bad = Post(sim->port(), "/v1/chat/completions", testing::OpenAiHeaders(), ToJson(req));
  EXPECT_EQ(bad.status, 400);
  EXPECT_EQ(ErrorMessage(bad).rfind("Invalid value: 'turbo'", 0), 0u) << bad.body;
}

// --- Anthropic ---

Json AnthropicThinking() {
  Json req = TestJson("anthropic_output_format.json");
  req.set("max_tokens", 4096);
  req.set("thinking", *ParseJson(R"({"type":"enabled","budget_tokens":2048})"));
  return req;
}

TEST(SimThinkingTest, AnthropicAnswersWithASignedThinkingBlockFirst) {
  auto sim = testing::StartSim();
  auto r =
      Post(sim->port(), "/v1/messages", testing::AnthropicHeaders(), ToJson(AnthropicThinking()));
  ASSERT_EQ(r.status, 200) << r.body;
  const auto& content = r.json.find("content")->as_array();
  ASSERT_GE(content.size(), 2u);
  EXPECT_EQ(content[0].find("type")->as_string(), "thinking");
  EXPECT_FALSE(content[0].find("signature")->as_string().empty());
  EXPECT_EQ(content[1].find("type")->as_string(), "text");
  EXPECT_TRUE(ParseJson(content[1].find("text")->as_string()).ok());
  // The fields the current API returns.
  const Json& usage = *r.json.find("usage");
  EXPECT_NE(usage.find("cache_creation"), nullptr);
  EXPECT_NE(usage.find("service_tier"), nullptr);
}

TEST(SimThinkingTest, AnthropicChecksTheBudgetAndForcedTools) {
  auto sim = testing::StartSim();
  Json small = AnthropicThinking();
  small.set("thinking", *ParseJson(R"({"type":"enabled","budget_tokens":512})"));
  auto r1 = Post(sim->port(), "/v1/messages", testing::AnthropicHeaders(), ToJson(small));
  EXPECT_EQ(r1.status, 400);
  EXPECT_EQ(ErrorMessage(r1),
            "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
  Json over = AnthropicThinking();
  over.set("max_tokens", 2048);
  auto r2 = Post(sim->port(), "/v1/messages", testing::AnthropicHeaders(), ToJson(over));
  EXPECT_EQ(r2.status, 400);
  EXPECT_EQ(ErrorMessage(r2).rfind("`max_tokens` must be greater than `thinking.budget_tokens`", 0),
            0u);
  Json forced = TestJson("anthropic_tools.json");
  forced.set("max_tokens", 4096);
  forced.set("thinking", *ParseJson(R"({"type":"enabled","budget_tokens":2048})"));
  auto r3 = Post(sim->port(), "/v1/messages", testing::AnthropicHeaders(), ToJson(forced));
  EXPECT_EQ(r3.status, 400);
  EXPECT_EQ(ErrorMessage(r3), "Thinking may not be enabled when tool_choice forces tool use.");
}

// A tool-use cycle replayed with `first` as the assistant turn's content.
Json AnthropicReplay(Json first) {
  Json req = TestJson("anthropic_tools.json");
  req.set("max_tokens", 4096);
  req.set("tool_choice", *ParseJson(R"({"type":"auto"})"));
  req.set("thinking", *ParseJson(R"({"type":"enabled","budget_tokens":2048})"));
  Json content = Json::MakeArray();
  if (!first.is_null()) content.push_back(std::move(first));
  content.push_back(*ParseJson(
      R"({"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"location":"SF"}})"));
  Json& msgs = req["messages"];
  msgs.push_back(Json(Json::Object{{"role", "assistant"}, {"content", std::move(content)}}));
  msgs.push_back(*ParseJson(R"({"role":"user","content":[{"type":"tool_result",
    "tool_use_id":"toolu_1","content":"unit must be celsius","is_error":true}]})"));
  return req;
}

TEST(SimThinkingTest, AnthropicRejectsAToolUseReplayWithoutItsThinkingBlock) {
  auto sim = testing::StartSim();
  auto first =
      Post(sim->port(), "/v1/messages", testing::AnthropicHeaders(), ToJson(AnthropicThinking()));
  ASSERT_EQ(first.status, 200) << first.body;
  Json thinking = first.json.find("content")->as_array()[0];

  auto dropped = Post(sim->port(), "/v1/messages", testing::AnthropicHeaders(),
                      ToJson(AnthropicReplay(Json())));
  EXPECT_EQ(dropped.status, 400);
  EXPECT_EQ(ErrorMessage(dropped).rfind(
                "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found "
                "`tool_use`.",
                0),
            0u)
      << dropped.body;
  Json tampered = thinking;
  tampered.set("thinking", "Something else.");
  auto bad_sig = Post(sim->port(), "/v1/messages", testing::AnthropicHeaders(),
                      ToJson(AnthropicReplay(tampered)));
  EXPECT_EQ(bad_sig.status, 400);
  EXPECT_EQ(ErrorMessage(bad_sig), "messages.1.content.0: Invalid `signature` in `thinking` block");
  auto kept = Post(sim->port(), "/v1/messages", testing::AnthropicHeaders(),
                   ToJson(AnthropicReplay(thinking)));
  EXPECT_EQ(kept.status, 200) << kept.body;
}

// --- Gemini ---

constexpr const char* kGemini3 = "/v1beta/models/gemini-3-pro-preview:generateContent";

TEST(SimThinkingTest, GeminiSignsCallsAndCountsThoughts) {
  auto sim = testing::StartSim();
  auto r =
      Post(sim->port(), kGemini3, testing::GeminiHeaders(), ToJson(TestJson("gemini_tools.json")));
  ASSERT_EQ(r.status, 200) << r.body;
  const Json& part =
      r.json.find("candidates")->as_array()[0].find("content")->find("parts")->as_array()[0];
  EXPECT_NE(part.find("functionCall"), nullptr);
  EXPECT_FALSE(part.find("thoughtSignature")->as_string().empty());
  EXPECT_GT(r.json.find("usageMetadata")->find("thoughtsTokenCount")->as_int(), 0);
  // A model that does not think sends neither.
  auto plain = Post(sim->port(), "/v1beta/models/gemini-2.0-flash:generateContent",
                    testing::GeminiHeaders(), ToJson(TestJson("gemini_tools.json")));
  ASSERT_EQ(plain.status, 200) << plain.body;
  EXPECT_EQ(plain.body.find("thoughtSignature"), std::string::npos);
  EXPECT_EQ(plain.json.find("usageMetadata")->find("thoughtsTokenCount"), nullptr);
}

TEST(SimThinkingTest, Gemini3RejectsAFunctionCallReplayedWithoutItsSignature) {
  auto sim = testing::StartSim();
  Json req = TestJson("gemini_tools.json");
  auto first = Post(sim->port(), kGemini3, testing::GeminiHeaders(), ToJson(req));
  ASSERT_EQ(first.status, 200) << first.body;
  Json model_turn = *first.json.find("candidates")->as_array()[0].find("content");
  auto replay = [&](Json turn) {
    Json r = req;
    r["contents"].push_back(std::move(turn));
    r["contents"].push_back(*ParseJson(R"({"role":"user","parts":[{"functionResponse":
      {"name":"schedule_meeting","response":{"error":"/date: must be a date"}}}]})"));
    return Post(sim->port(), kGemini3, testing::GeminiHeaders(), ToJson(r));
  };
  Json stripped = model_turn;
  stripped["parts"].as_array()[0].erase("thoughtSignature");
  auto missing = replay(stripped);
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(ErrorMessage(missing).rfind(
                "Function call is missing a thought_signature in functionCall parts.", 0),
            0u)
      << missing.body;
  Json forged = model_turn;
  forged["parts"].as_array()[0].set("thoughtSignature", "forged");
  EXPECT_EQ(replay(forged).status, 400);
  auto kept = replay(model_turn);
  EXPECT_EQ(kept.status, 200) << kept.body;
}

TEST(SimThinkingTest, GeminiThinkingThatUsesTheCapLeavesACandidateWithoutParts) {
  auto sim = testing::StartSim();
  Json req = TestJson("gemini_json_schema.json");
  req["generationConfig"].set("maxOutputTokens", 100);
  auto r = Post(sim->port(), "/v1beta/models/gemini-2.5-flash:generateContent",
                testing::GeminiHeaders(), ToJson(req));
  ASSERT_EQ(r.status, 200) << r.body;
  const Json& cand = r.json.find("candidates")->as_array()[0];
  EXPECT_EQ(cand.find("finishReason")->as_string(), "MAX_TOKENS");
  EXPECT_EQ(cand.find("content")->find("parts"), nullptr);
  EXPECT_EQ(r.json.find("usageMetadata")->find("thoughtsTokenCount")->as_int(), 100);
  req["generationConfig"].set("thinkingConfig", *ParseJson(R"({"thinkingBudget":0})"));
  auto off = Post(sim->port(), "/v1beta/models/gemini-2.5-flash:generateContent",
                  testing::GeminiHeaders(), ToJson(req));
  ASSERT_EQ(off.status, 200) << off.body;
  EXPECT_EQ(off.json.find("usageMetadata")->find("thoughtsTokenCount"), nullptr);
}

}  // namespace
}  // namespace structure::sim
