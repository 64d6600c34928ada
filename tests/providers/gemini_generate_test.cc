#include "providers/gemini_generate.h"

#include <gtest/gtest.h>

#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

Endpoint MakeEndpoint(bool legacy = false) {
  Endpoint e;
  e.kind = ProviderKind::kGemini;
  e.base_url = "http://127.0.0.1:9";
  e.api_key = "g-test";
  e.gemini_legacy_schema = legacy;
  return e;
}

TEST(GeminiGenerateTest, BuildsResponseJsonSchemaRequest) {
  auto req = gemini_generate::BuildRequest(testing::BasicCall(), MakeEndpoint());
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  EXPECT_EQ(req->url, "http://127.0.0.1:9/v1beta/models/test-model:generateContent");
  EXPECT_EQ(testing::HeaderValue(*req, "x-goog-api-key"), "g-test");
  testing::ExpectGolden("gemini/request_basic.json", req->body);
}

TEST(GeminiGenerateTest, UsesLegacyResponseSchemaWhenAsked) {
  auto req = gemini_generate::BuildRequest(testing::BasicCall(), MakeEndpoint(true));
  ASSERT_TRUE(req.ok());
  auto body = ParseJson(req->body);
  ASSERT_TRUE(body.ok());
  const Json* gen = body->find("generationConfig");
  EXPECT_NE(gen->find("responseSchema"), nullptr);
  EXPECT_EQ(gen->find("responseJsonSchema"), nullptr);
}

TEST(GeminiGenerateTest, BuildsForcedFunctionCallingWithHistory) {
  auto req = gemini_generate::BuildRequest(testing::ToolCallHistory(), MakeEndpoint());
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  testing::ExpectGolden("gemini/request_final_tool.json", req->body);
}

TEST(GeminiGenerateTest, RejectsModelNameThatWouldBreakTheUrl) {
  ProviderCall c = testing::BasicCall();
  c.model = "gemini?key=x";
  EXPECT_EQ(gemini_generate::BuildRequest(c, MakeEndpoint()).status().code(),
            Code::kInvalidArgument);
}

TEST(GeminiGenerateTest, BlockedPromptIsSafetyFinish) {
  auto r = gemini_generate::ParseReply(
      testing::Response(200, testing::ReadData("gemini/reply_prompt_blocked.json")));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(r->finish, FinishKind::kSafety);
  EXPECT_NE(r->refusal.find("SAFETY"), std::string::npos);
}

TEST(GeminiGenerateTest, InvalidKeyReportedAs400IsUnauthenticated) {
  auto r = gemini_generate::ParseReply(testing::Response(
      400, R"({"error":{"code":400,"message":"API key not valid. Please pass a valid API key.",
               "status":"INVALID_ARGUMENT"}})"));
  EXPECT_EQ(r.status().code(), Code::kUnauthenticated);
}

}  // namespace
}  // namespace structure::providers
