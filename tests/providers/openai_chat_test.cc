#include "providers/openai/openai_chat.h"

#include <gtest/gtest.h>

#include "providers/openai_compat/openai_compat.h"
#include "providers/openai_compat/openrouter.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

using testing::BasicCall;
using testing::ExpectGolden;
using testing::HeaderValue;
using testing::PlainJsonCall;
using testing::ToolCallHistory;

Endpoint MakeEndpoint(ProviderKind kind, std::string key = "sk-test") {
  Endpoint e;
  e.kind = kind;
  e.base_url = "http://127.0.0.1:9";
  e.api_key = std::move(key);
  return e;
}

TEST(OpenAiChatTest, BuildsStrictJsonSchemaRequest) {
  auto req = openai_chat::BuildRequest(BasicCall(), MakeEndpoint(ProviderKind::kOpenAi));
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  EXPECT_EQ(req->url, "http://127.0.0.1:9/v1/chat/completions");
  EXPECT_EQ(req->method, "POST");
  EXPECT_EQ(HeaderValue(*req, "Authorization"), "Bearer sk-test");
  ExpectGolden("openai/request_basic.json", req->body);
}

TEST(OpenAiChatTest, BuildsFinalToolAndNeedToolWithHistory) {
  auto req = openai_chat::BuildRequest(ToolCallHistory(), MakeEndpoint(ProviderKind::kOpenAi));
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  ExpectGolden("openai/request_final_tool.json", req->body);
}

TEST(OpenAiChatTest, BuildsJsonObjectModeWithoutSchema) {
  auto req = openai_chat::BuildRequest(PlainJsonCall(), MakeEndpoint(ProviderKind::kOpenAi));
  ASSERT_TRUE(req.ok());
  ExpectGolden("openai/request_plain.json", req->body);
}

TEST(OpenAiChatTest, RejectsCallWithoutModelOrTurns) {
  ProviderCall c = BasicCall();
  c.model.clear();
  EXPECT_EQ(openai_chat::BuildRequest(c, MakeEndpoint(ProviderKind::kOpenAi)).status().code(),
            Code::kInvalidArgument);
  c = BasicCall();
  c.turns.clear();
  EXPECT_EQ(openai_chat::BuildRequest(c, MakeEndpoint(ProviderKind::kOpenAi)).status().code(),
            Code::kInvalidArgument);
  c = BasicCall();
  c.final_tool = true;
  c.schema = Json();
  EXPECT_EQ(openai_chat::BuildRequest(c, MakeEndpoint(ProviderKind::kOpenAi)).status().code(),
            Code::kInvalidArgument);
}

TEST(OpenAiCompatTest, UsesMaxTokensAndNoAuthWithoutKey) {
  auto req =
      openai_compat::BuildRequest(BasicCall(), MakeEndpoint(ProviderKind::kOpenAiCompat, ""));
  ASSERT_TRUE(req.ok());
  EXPECT_EQ(HeaderValue(*req, "Authorization"), "");
  ExpectGolden("openai_compat/request_basic.json", req->body);
}

// Each OpenAI-compatible server gets the schema where its documentation puts it.
TEST(OpenAiCompatTest, VllmSendsResponseFormatJsonSchema) {
  auto req = openai_compat::BuildRequest(BasicCall(), MakeEndpoint(ProviderKind::kVllm, ""));
  ASSERT_TRUE(req.ok());
  auto body = ParseJson(req->body);
  ASSERT_TRUE(body.ok());
  EXPECT_EQ(ToJson(*body->find("response_format")->find("type")), R"("json_schema")");
  EXPECT_EQ(body->find("json_schema"), nullptr);
  ExpectGolden("openai_compat/request_basic.json", req->body);  // the generic form
}

TEST(OpenAiCompatTest, LlamaCppSendsTopLevelJsonSchemaOnly) {
  ProviderCall call = BasicCall();
  auto req = openai_compat::BuildRequest(call, MakeEndpoint(ProviderKind::kLlamaCpp, ""));
  ASSERT_TRUE(req.ok());
  auto body = ParseJson(req->body);
  ASSERT_TRUE(body.ok());
  // llama-server answers 400 when response_format comes with json_schema.
  EXPECT_EQ(body->find("response_format"), nullptr);
  ASSERT_NE(body->find("json_schema"), nullptr);
  EXPECT_EQ(*body->find("json_schema"), *call.schema);
  ExpectGolden("openai_compat/request_llamacpp.json", req->body);
}

TEST(OpenAiCompatTest, LlamafileSendsJsonObjectWithTheSchema) {
  ProviderCall call = BasicCall();
  auto req = openai_compat::BuildRequest(call, MakeEndpoint(ProviderKind::kLlamafile, ""));
  ASSERT_TRUE(req.ok());
  auto body = ParseJson(req->body);
  ASSERT_TRUE(body.ok());
  const Json* rf = body->find("response_format");
  ASSERT_NE(rf, nullptr);
  EXPECT_EQ(ToJson(*rf->find("type")), R"("json_object")");
  EXPECT_EQ(*rf->find("schema"), *call.schema);
  ExpectGolden("openai_compat/request_llamafile.json", req->body);
}

TEST(OpenAiCompatTest, DialectsWithoutASchemaAskForJsonObject) {
  for (ProviderKind kind : {ProviderKind::kLlamaCpp, ProviderKind::kLlamafile}) {
    auto req = openai_compat::BuildRequest(PlainJsonCall(), MakeEndpoint(kind, ""));
    ASSERT_TRUE(req.ok());
    auto body = ParseJson(req->body);
    ASSERT_TRUE(body.ok());
    EXPECT_EQ(ToJson(*body->find("response_format")), R"({"type":"json_object"})");
    EXPECT_EQ(body->find("json_schema"), nullptr);
  }
}

TEST(OpenRouterTest, RequiresParametersSoRoutingNeverIgnoresTheSchema) {
  auto req = openrouter::BuildRequest(BasicCall(), MakeEndpoint(ProviderKind::kOpenRouter));
  ASSERT_TRUE(req.ok());
  auto body = ParseJson(req->body);
  ASSERT_TRUE(body.ok());
  const Json* provider = body->find("provider");
  ASSERT_NE(provider, nullptr);
  EXPECT_EQ(*provider->find("require_parameters"), Json(true));
  ExpectGolden("openrouter/request_basic.json", req->body);
}

TEST(OpenRouterTest, MapsErrorEmbeddedInOkBody) {
  auto r = openrouter::ParseReply(
      testing::Response(200, testing::ReadData("openrouter/reply_embedded_error.json")));
  EXPECT_EQ(r.status().code(), Code::kResourceExhausted);
  EXPECT_NE(r.status().message().find("Provider returned error"), std::string::npos);
}

TEST(OpenAiChatTest, AcceptsToolArgumentsSentAsObject) {
  auto r = openai_compat::ParseReply(testing::Response(200, R"({"choices":[{"message":{
    "tool_calls":[{"id":"c","function":{"name":"submit","arguments":{"a":1}}}]},
    "finish_reason":"tool_calls"}]})"),
                                     ProviderKind::kOpenAiCompat);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(r->tool_calls.size(), 1u);
  EXPECT_EQ(r->tool_calls[0].arguments, R"({"a":1})");
  EXPECT_EQ(r->finish, FinishKind::kToolUse);
}

}  // namespace
}  // namespace structure::providers
