#include "providers/gemini/gemini_generate.h"

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

TEST(GeminiGenerateTest, LegacyResponseSchemaUsesUpperCaseTypes) {
  ProviderCall c = testing::BasicCall();
  c.schema = *ParseJson(R"({"type":"object","properties":{"name":{"type":"string"},
    "nick":{"type":"string","nullable":true},"type":{"type":"integer"}},"required":["name"]})");
  auto req = gemini_generate::BuildRequest(c, MakeEndpoint(true));
  ASSERT_TRUE(req.ok());
  Json body = *ParseJson(req->body);
  const Json& schema = *body.find("generationConfig")->find("responseSchema");
  EXPECT_EQ(
      ToJson(schema),
      R"({"type":"OBJECT","properties":{"name":{"type":"STRING"},)"
      R"("nick":{"type":"STRING","nullable":true},"type":{"type":"INTEGER"}},"required":["name"]})");
}

TEST(GeminiGenerateTest, LegacyFinalToolGoesIntoParametersAndJsonSchemaIntoItsOwnField) {
  ProviderCall c = testing::ToolCallHistory();
  c.schema =
      *ParseJson(R"({"type":"object","properties":{"name":{"type":"string","nullable":true}}})");
  auto legacy = gemini_generate::BuildRequest(c, MakeEndpoint(true));
  ASSERT_TRUE(legacy.ok());
  Json legacy_body = *ParseJson(legacy->body);
  const Json& decl =
      legacy_body.find("tools")->as_array()[0].find("functionDeclarations")->as_array()[0];
  EXPECT_EQ(decl.find("parametersJsonSchema"), nullptr);
  EXPECT_EQ(*decl.find("parameters")->find("type"), Json("OBJECT"));
  // The JSON Schema form never carries the legacy `nullable`.
  ProviderCall json = testing::ToolCallHistory();
  auto modern = gemini_generate::BuildRequest(json, MakeEndpoint(false));
  ASSERT_TRUE(modern.ok());
  Json modern_body = *ParseJson(modern->body);
  const Json& d2 =
      modern_body.find("tools")->as_array()[0].find("functionDeclarations")->as_array()[0];
  EXPECT_EQ(d2.find("parameters"), nullptr);
  EXPECT_NE(d2.find("parametersJsonSchema"), nullptr);
  EXPECT_EQ(modern->body.find("nullable"), std::string::npos);
}

TEST(GeminiGenerateTest, BuildsForcedFunctionCallingWithHistory) {
  auto req = gemini_generate::BuildRequest(testing::ToolCallHistory(), MakeEndpoint());
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  testing::ExpectGolden("gemini/request_final_tool.json", req->body);
}

TEST(GeminiGenerateTest, NeverSendsAnEmptyTextPartOnAReaskAfterAnEmptyReply) {
  auto req = gemini_generate::BuildRequest(testing::ReaskAfterEmptyReply(), MakeEndpoint());
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  auto body = ParseJson(req->body);
  ASSERT_TRUE(body.ok());
  const auto& contents = body->find("contents")->as_array();
  ASSERT_EQ(contents.size(), 1u) << req->body;
  EXPECT_EQ(contents[0].find("parts")->size(), 2u);
  EXPECT_EQ(req->body.find(R"("text":"")"), std::string::npos) << req->body;
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
