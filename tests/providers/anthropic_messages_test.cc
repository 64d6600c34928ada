#include "providers/anthropic/anthropic_messages.h"

#include <gtest/gtest.h>

#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

Endpoint MakeEndpoint() {
  Endpoint e;
  e.kind = ProviderKind::kAnthropic;
  e.base_url = "http://127.0.0.1:9";
  e.api_key = "sk-ant-test";
  return e;
}

TEST(AnthropicMessagesTest, BuildsOutputConfigFormatRequest) {
  auto req = anthropic_messages::BuildRequest(testing::BasicCall(), MakeEndpoint());
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  EXPECT_EQ(req->url, "http://127.0.0.1:9/v1/messages");
  EXPECT_EQ(testing::HeaderValue(*req, "x-api-key"), "sk-ant-test");
  EXPECT_EQ(testing::HeaderValue(*req, "anthropic-version"), "2023-06-01");
  testing::ExpectGolden("anthropic/request_basic.json", req->body);
}

TEST(AnthropicMessagesTest, BuildsStrictToolsAndMergesToolResultsIntoUserTurn) {
  auto req = anthropic_messages::BuildRequest(testing::ToolCallHistory(), MakeEndpoint());
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  testing::ExpectGolden("anthropic/request_final_tool.json", req->body);
  auto body = ParseJson(req->body);
  ASSERT_TRUE(body.ok());
  // user, assistant(tool_use), user(tool_result): roles alternate.
  const auto& msgs = body->find("messages")->as_array();
  ASSERT_EQ(msgs.size(), 3u);
  EXPECT_EQ(*msgs[2].find("role"), Json("user"));
  EXPECT_EQ(*msgs[2].find("content")->as_array()[0].find("type"), Json("tool_result"));
  EXPECT_EQ(*body->find("tool_choice")->find("type"), Json("any"));
}

TEST(AnthropicMessagesTest, NeverSendsAnEmptyTextBlockOnAReaskAfterAnEmptyReply) {
  auto req = anthropic_messages::BuildRequest(testing::ReaskAfterEmptyReply(), MakeEndpoint());
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  auto body = ParseJson(req->body);
  ASSERT_TRUE(body.ok());
  // The empty assistant turn is left out; the user's text and the reason share one message.
  const auto& msgs = body->find("messages")->as_array();
  ASSERT_EQ(msgs.size(), 1u) << req->body;
  const auto& blocks = msgs[0].find("content")->as_array();
  ASSERT_EQ(blocks.size(), 2u);
  for (const Json& b : blocks) EXPECT_FALSE(b.find("text")->as_string().empty()) << req->body;
  EXPECT_EQ(req->body.find(R"("text":"")"), std::string::npos) << req->body;
}

TEST(AnthropicMessagesTest, WhitespaceOnlyAssistantTextIsLeftOut) {
  ProviderCall c = testing::ReaskAfterEmptyReply();
  c.turns[1].text = " \n ";
  auto req = anthropic_messages::BuildRequest(c, MakeEndpoint());
  ASSERT_TRUE(req.ok());
  EXPECT_EQ(ParseJson(req->body)->find("messages")->size(), 1u) << req->body;
}

TEST(AnthropicMessagesTest, KeepsTextBeforeToolUseAndCountsCacheTokens) {
  auto r = anthropic_messages::ParseReply(
      testing::Response(200, testing::ReadData("anthropic/reply_tool_call.json")));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->content, "Submitting.");
  ASSERT_EQ(r->tool_calls.size(), 1u);
  EXPECT_EQ(r->tool_calls[0].id, "toolu_01");
  EXPECT_EQ(r->usage.input_tokens, 150);
  EXPECT_EQ(r->usage.cached_input_tokens, 10);
  EXPECT_EQ(r->usage.cache_write_tokens, 0);
}

TEST(AnthropicMessagesTest, OverloadedIsRetryable) {
  auto r = anthropic_messages::ParseReply(
      testing::Response(529, testing::ReadData("anthropic/error_529.json")));
  EXPECT_EQ(r.status().code(), Code::kUnavailable);
  EXPECT_TRUE(r.status().retryable());
  EXPECT_NE(r.status().message().find("Overloaded"), std::string::npos);
}

}  // namespace
}  // namespace structure::providers
