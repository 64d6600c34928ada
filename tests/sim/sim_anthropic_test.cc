// Anthropic messages over real HTTP: documented request shapes, response shapes and errors.
#include <gtest/gtest.h>

#include "tests/sim/sim_test_client.h"

namespace structure::sim {
namespace {

using testing::AnthropicHeaders;
using testing::Post;
using testing::TestJson;

constexpr const char* kPath = "/v1/messages";

void ExpectAnthropicError(const testing::HttpReply& r, long status, const std::string& type) {
  EXPECT_EQ(r.status, status) << r.body;
  EXPECT_EQ(r.json.find("type") ? r.json.find("type")->as_string() : "", "error") << r.body;
  const Json* err = r.json.find("error");
  ASSERT_NE(err, nullptr) << r.body;
  EXPECT_EQ(err->find("type")->as_string(), type);
  EXPECT_TRUE(err->find("message")->is_string());
}

TEST(SimAnthropicTest, AnswersOutputConfigFormatWithTextBlockOfJson) {
  auto sim = testing::StartSim();
  auto r = Post(sim->port(), kPath, AnthropicHeaders(),
                ToJson(TestJson("anthropic_output_format.json")));
  ASSERT_EQ(r.status, 200) << r.body;
  const Json& b = r.json;
  EXPECT_EQ(b.find("id")->as_string().rfind("msg_", 0), 0u);
  EXPECT_EQ(b.find("type")->as_string(), "message");
  EXPECT_EQ(b.find("role")->as_string(), "assistant");
  EXPECT_EQ(b.find("model")->as_string(), "claude-sonnet-4-5");
  EXPECT_EQ(b.find("stop_reason")->as_string(), "end_turn");
  EXPECT_TRUE(b.find("stop_sequence")->is_null());
  const Json& block = b.find("content")->as_array().at(0);
  EXPECT_EQ(block.find("type")->as_string(), "text");
  auto data = ParseJson(block.find("text")->as_string());
  ASSERT_TRUE(data.ok());
  EXPECT_TRUE(data->find("demo_requested")->is_bool());
  EXPECT_GT(b.find("usage")->find("input_tokens")->as_int(), 0);
  EXPECT_GT(b.find("usage")->find("output_tokens")->as_int(), 0);
  EXPECT_FALSE(r.headers["request-id"].empty());
}

TEST(SimAnthropicTest, AnswersForcedToolWithToolUseBlock) {
  auto sim = testing::StartSim();
  auto r = Post(sim->port(), kPath, AnthropicHeaders(), ToJson(TestJson("anthropic_tools.json")));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json.find("stop_reason")->as_string(), "tool_use");
  const Json& block = r.json.find("content")->as_array().at(0);
  EXPECT_EQ(block.find("type")->as_string(), "tool_use");
  EXPECT_EQ(block.find("id")->as_string().rfind("toolu_", 0), 0u);
  EXPECT_EQ(block.find("name")->as_string(), "get_weather");
  ASSERT_TRUE(block.find("input")->is_object());
  EXPECT_TRUE(block.find("input")->find("location")->is_string());
}

TEST(SimAnthropicTest, RejectsNumericBoundsInStrictFormatWith400) {
  auto sim = testing::StartSim();
  auto r =
      Post(sim->port(), kPath, AnthropicHeaders(), ToJson(TestJson("anthropic_rejected.json")));
  ExpectAnthropicError(r, 400, "invalid_request_error");
  EXPECT_EQ(
      r.json.find("error")->find("message")->as_string().rfind("output_config.format.schema", 0),
      0u)
      << r.body;
}

TEST(SimAnthropicTest, RequiresKeyVersionAndMaxTokens) {
  SimOptions options;
  options.scenario.keys.invalid_keys.insert("sk-ant-bad");
  auto sim = testing::StartSim(options);
  std::string body = ToJson(TestJson("anthropic_output_format.json"));
  ExpectAnthropicError(Post(sim->port(), kPath, {"anthropic-version: 2023-06-01"}, body), 401,
                       "authentication_error");
  ExpectAnthropicError(
      Post(sim->port(), kPath, {"x-api-key: sk-ant-bad", "anthropic-version: 2023-06-01"}, body),
      401, "authentication_error");
  ExpectAnthropicError(Post(sim->port(), kPath, {"x-api-key: k"}, body), 400,
                       "invalid_request_error");
  Json no_max = TestJson("anthropic_output_format.json");
  no_max.erase("max_tokens");
  auto r = Post(sim->port(), kPath, AnthropicHeaders(), ToJson(no_max));
  ExpectAnthropicError(r, 400, "invalid_request_error");
  EXPECT_EQ(r.json.find("error")->find("message")->as_string(), "max_tokens: Field required");
}

TEST(SimAnthropicTest, RejectsEmptyTextBlocksAndEmptyMessagesLikeTheApi) {
  auto sim = testing::StartSim();
  auto with_assistant = [](Json content) {
    Json req = TestJson("anthropic_output_format.json");
    Json& msgs = req["messages"];
    msgs.push_back(Json(Json::Object{{"role", "assistant"}, {"content", std::move(content)}}));
    msgs.push_back(Json(Json::Object{{"role", "user"}, {"content", "Again, please."}}));
    return ToJson(req);
  };
  auto message = [](const testing::HttpReply& r) {
    const Json* err = r.json.find("error");
    return err ? err->find("message")->as_string() : std::string();
  };
  auto empty_text = Post(sim->port(), kPath, AnthropicHeaders(),
                         with_assistant(*ParseJson(R"([{"type":"text","text":""}])")));
  ExpectAnthropicError(empty_text, 400, "invalid_request_error");
  EXPECT_EQ(message(empty_text), "messages: text content blocks must be non-empty");
  auto blank = Post(sim->port(), kPath, AnthropicHeaders(),
                    with_assistant(*ParseJson(R"([{"type":"text","text":" \n"}])")));
  EXPECT_EQ(message(blank), "messages: text content blocks must contain non-whitespace text");
  auto no_content = Post(sim->port(), kPath, AnthropicHeaders(), with_assistant(Json::MakeArray()));
  ExpectAnthropicError(no_content, 400, "invalid_request_error");
  EXPECT_EQ(message(no_content).rfind("messages.1: all messages must have non-empty content", 0),
            0u)
      << no_content.body;
  auto fine = Post(sim->port(), kPath, AnthropicHeaders(),
                   with_assistant(*ParseJson(R"([{"type":"text","text":"{}"}])")));
  EXPECT_EQ(fine.status, 200) << fine.body;
}

TEST(SimAnthropicTest, ReportsMaxTokensStopReasonWhenCut) {
  auto sim = testing::StartSim();
  Json req = TestJson("anthropic_output_format.json");
  req.set("max_tokens", 3);
  auto r = Post(sim->port(), kPath, AnthropicHeaders(), ToJson(req));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json.find("stop_reason")->as_string(), "max_tokens");
  EXPECT_EQ(r.json.find("usage")->find("output_tokens")->as_int(), 3);
}

}  // namespace
}  // namespace structure::sim
