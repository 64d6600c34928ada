#include "providers/ollama/ollama_chat.h"

#include <gtest/gtest.h>

#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

Endpoint MakeEndpoint() {
  Endpoint e;
  e.kind = ProviderKind::kOllama;
  e.base_url = "http://127.0.0.1:11434";
  return e;
}

TEST(OllamaChatTest, BuildsFormatSchemaRequest) {
  auto req = ollama_chat::BuildRequest(testing::BasicCall(), MakeEndpoint());
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  EXPECT_EQ(req->url, "http://127.0.0.1:11434/api/chat");
  EXPECT_EQ(testing::HeaderValue(*req, "Authorization"), "");
  testing::ExpectGolden("ollama/request_basic.json", req->body);
}

TEST(OllamaChatTest, BuildsToolsWithHistory) {
  auto req = ollama_chat::BuildRequest(testing::ToolCallHistory(), MakeEndpoint());
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  testing::ExpectGolden("ollama/request_final_tool.json", req->body);
}

TEST(OllamaChatTest, PlainJsonModeSendsFormatJson) {
  auto req = ollama_chat::BuildRequest(testing::PlainJsonCall(), MakeEndpoint());
  ASSERT_TRUE(req.ok());
  auto body = ParseJson(req->body);
  ASSERT_TRUE(body.ok());
  EXPECT_EQ(*body->find("format"), Json("json"));
}

}  // namespace
}  // namespace structure::providers
