// The reply shapes of real servers the simulator can answer in: Mistral's content as
// a list of parts, a call without `arguments` (OpenRouter), an Ollama answer in
// message.thinking, and Anthropic's thinking-token count by model, as the recorded replies in
// tests/data/providers/recorded show them.
#include <gtest/gtest.h>

#include "sim/scenario.h"
#include "tests/sim/sim_test_client.h"

namespace structure::sim {
namespace {

using testing::AnthropicHeaders;
using testing::OpenAiHeaders;
using testing::Post;
using testing::TestJson;

SimOptions WithScenario(const std::string& text) {
  auto s = ParseScenario(text);
  EXPECT_TRUE(s.ok()) << s.status().ToString();
  SimOptions o;
  if (s.ok()) o.scenario = std::move(*s);
  return o;
}

const Json& Message(const Json& body) {
  return *body.find("choices")->as_array().at(0).find("message");
}

TEST(SimReplyShapesTest, ContentPartsAnswerInMistralsForm) {
  auto sim = testing::StartSim(WithScenario(R"({"reply_shape":"content_parts"})"));
  auto r = Post(sim->port(), "/v1/chat/completions", OpenAiHeaders(),
                ToJson(TestJson("openai_json_schema.json")));
  ASSERT_EQ(r.status, 200) << r.body;
  const Json& parts = *Message(r.json).find("content");
  ASSERT_TRUE(parts.is_array()) << r.body;
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_EQ(parts.as_array()[0].find("type")->as_string(), "thinking");
  EXPECT_TRUE(parts.as_array()[0].find("thinking")->is_array());
  EXPECT_EQ(parts.as_array()[1].find("type")->as_string(), "text");
  EXPECT_TRUE(ParseJson(parts.as_array()[1].find("text")->as_string()).ok());
  const Json& usage = *r.json.find("usage");
  EXPECT_GT(usage.find("completion_tokens")->as_int(), 0);
  EXPECT_EQ(usage.find("completion_tokens_details"), nullptr);
  EXPECT_EQ(r.json.find("system_fingerprint"), nullptr);
}

// A scenario may set both: a request past the grammar budget is refused with the provider's
// own "too large" body before any answer is shaped; one under it is answered in the shape.
TEST(SimReplyShapesTest, AGrammarBudgetRefusesBeforeTheReplyShapeApplies) {
  auto tight = testing::StartSim(
      WithScenario(R"({"reply_shape":"content_parts","grammar_budgets":{"*":1}})"));
  auto refused = Post(tight->port(), "/v1/chat/completions", OpenAiHeaders(),
                      ToJson(TestJson("openai_json_schema.json")));
  EXPECT_EQ(refused.status, 400) << refused.body;
  EXPECT_NE(refused.body.find("parameters exceed the limit of"), std::string::npos) << refused.body;
  auto roomy = testing::StartSim(
      WithScenario(R"({"reply_shape":"content_parts","grammar_budgets":{"*":100000}})"));
  auto answered = Post(roomy->port(), "/v1/chat/completions", OpenAiHeaders(),
                       ToJson(TestJson("openai_json_schema.json")));
  ASSERT_EQ(answered.status, 200) << answered.body;
  EXPECT_TRUE(Message(answered.json).find("content")->is_array()) << answered.body;
}

TEST(SimReplyShapesTest, ArgumentsMissingLeavesOutOnlyEmptyArguments) {
  auto sim = testing::StartSim(WithScenario(R"({"reply_shape":"arguments_missing","rules":[
    {"contains":"Paris","reply":{"tool_call":{"arguments":{}}}},
    {"contains":"Rome","reply":{"tool_call":{"arguments":{"latitude":41.9,"longitude":12.5}}}}]})"));
  Json paris = TestJson("openai_tools.json");
  auto empty = Post(sim->port(), "/v1/chat/completions", OpenAiHeaders(), ToJson(paris));
  ASSERT_EQ(empty.status, 200) << empty.body;
  const Json& fn = *Message(empty.json).find("tool_calls")->as_array().at(0).find("function");
  EXPECT_EQ(fn.find("name")->as_string(), "get_weather");
  EXPECT_EQ(fn.find("arguments"), nullptr) << empty.body;
  (*paris.find("messages")).as_array()[0].set("content", "And in Rome?");
  auto full = Post(sim->port(), "/v1/chat/completions", OpenAiHeaders(), ToJson(paris));
  ASSERT_EQ(full.status, 200) << full.body;
  const Json& args =
      *Message(full.json).find("tool_calls")->as_array().at(0).find("function")->find("arguments");
  EXPECT_EQ(*ParseJson(args.as_string()), *ParseJson(R"({"latitude":41.9,"longitude":12.5})"));
}

TEST(SimReplyShapesTest, ThinkingOnlyPutsTheOllamaAnswerInTheThinking) {
  auto sim = testing::StartSim(WithScenario(R"({"rules":[{"contains":"Ollama",
    "reply":{"json":{"age":22,"available":false},"shape":"thinking_only"}}]})"));
  auto r = Post(sim->port(), "/api/chat", {}, ToJson(TestJson("ollama_format.json")));
  ASSERT_EQ(r.status, 200) << r.body;
  const Json& m = *r.json.find("message");
  EXPECT_EQ(m.find("content")->as_string(), "");
  EXPECT_EQ(*ParseJson(m.find("thinking")->as_string()),
            *ParseJson(R"({"age":22,"available":false})"));
  EXPECT_EQ(r.json.find("done_reason")->as_string(), "stop");
}

// Recorded: claude-opus-4-7 and -5 send usage.output_tokens_details (0 without thinking),
// claude-sonnet-4-5 and claude-haiku-4-5 never do.
TEST(SimReplyShapesTest, AnthropicThinkingTokenCountFollowsTheModel) {
  auto sim = testing::StartSim();
  Json req = TestJson("anthropic_output_format.json");
  for (const char* model :
       {"claude-sonnet-4-5", "claude-haiku-4-5-20251001", "claude-3-7-sonnet"}) {
    req.set("model", model);
    // Claude 3.7 Sonnet has no structured outputs: it is asked in plain text.
    Json plain = req;
    if (std::string(model) == "claude-3-7-sonnet") plain.erase("output_config");
    auto r = Post(sim->port(), "/v1/messages", AnthropicHeaders(), ToJson(plain));
    ASSERT_EQ(r.status, 200) << model << ": " << r.body;
    EXPECT_EQ(r.json.find("usage")->find("output_tokens_details"), nullptr) << model;
  }
  req.set("model", "claude-opus-4-7");
  auto r = Post(sim->port(), "/v1/messages", AnthropicHeaders(), ToJson(req));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(*r.json.find("usage")->find("output_tokens_details"),
            *ParseJson(R"({"thinking_tokens":0})"));
}

TEST(SimReplyShapesTest, AnUnknownShapeIsRejectedWhereItIsWritten) {
  auto top = ParseScenario(R"({"reply_shape":"mistral"})", "s.json");
  ASSERT_FALSE(top.ok());
  EXPECT_NE(top.status().message().find("s.json: reply_shape"), std::string::npos)
      << top.status().message();
  EXPECT_NE(top.status().message().find("content_parts"), std::string::npos);
  auto reply = ParseScenario(R"({"rules":[{"reply":{"json":{},"shape":7}}]})", "s.json");
  ASSERT_FALSE(reply.ok());
  EXPECT_NE(reply.status().message().find("rules[0].reply.shape"), std::string::npos)
      << reply.status().message();
}

}  // namespace
}  // namespace structure::sim
