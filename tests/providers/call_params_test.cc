// A call's sampling parameters (temperature, top_p, seed, user) in every wire format: each sends
// those its provider takes, under the provider's own name, and the body still conforms to the
// provider's published request schema.
#include <gtest/gtest.h>

#include "providers/wire.h"
#include "tests/providers/golden.h"
#include "tests/providers/request_schema_check.h"

namespace structure::providers {
namespace {

Json Body(ProviderKind kind) {
  ProviderCall call = testing::BasicCall();
  call.temperature = 0.3;
  call.top_p = 0.9;
  call.seed = 7;
  call.user = "end-user-1";
  Endpoint e;
  e.kind = kind;
  e.base_url = "http://127.0.0.1:9";
  e.api_key = "k";
  auto req = BuildRequest(call, e);
  EXPECT_TRUE(req.ok()) << req.status().ToString();
  return req.ok() ? *ParseJson(req->body) : Json();
}

void ExpectConforms(const char* format, const Json& body) {
  for (const std::string& issue : testing::PublishedSchemaIssues(format, ToJson(body))) {
    ADD_FAILURE() << format << ": " << issue;
  }
}

TEST(CallParamsTest, OpenAiSendsAllFour) {
  Json b = Body(ProviderKind::kOpenAi);
  EXPECT_EQ(*b.find("temperature"), Json(0.3));
  EXPECT_EQ(*b.find("top_p"), Json(0.9));
  EXPECT_EQ(*b.find("seed"), Json(7));
  EXPECT_EQ(*b.find("user"), Json("end-user-1"));
  ExpectConforms("openai", b);
}

TEST(CallParamsTest, AnthropicSendsTopPAndTheUserAsMetadata) {
  Json b = Body(ProviderKind::kAnthropic);
  EXPECT_EQ(*b.find("top_p"), Json(0.9));
  EXPECT_EQ(*b.find("metadata")->find("user_id"), Json("end-user-1"));
  EXPECT_EQ(b.find("seed"), nullptr);
  ExpectConforms("anthropic", b);
}

TEST(CallParamsTest, GeminiSendsTopPAndSeedInGenerationConfig) {
  Json b = Body(ProviderKind::kGemini);
  const Json& gen = *b.find("generationConfig");
  EXPECT_EQ(*gen.find("topP"), Json(0.9));
  EXPECT_EQ(*gen.find("seed"), Json(7));
  ExpectConforms("gemini", b);
}

TEST(CallParamsTest, OllamaSendsThemAsOptions) {
  Json b = Body(ProviderKind::kOllama);
  const Json& options = *b.find("options");
  EXPECT_EQ(*options.find("top_p"), Json(0.9));
  EXPECT_EQ(*options.find("seed"), Json(7));
  ExpectConforms("ollama", b);
}

TEST(CallParamsTest, UnsetParametersAreNotSent) {
  ProviderCall call = testing::BasicCall();
  Endpoint e;
  e.kind = ProviderKind::kOpenAi;
  e.base_url = "http://127.0.0.1:9";
  e.api_key = "k";
  Json b = *ParseJson(BuildRequest(call, e)->body);
  EXPECT_EQ(b.find("top_p"), nullptr);
  EXPECT_EQ(b.find("seed"), nullptr);
  EXPECT_EQ(b.find("user"), nullptr);
}

}  // namespace
}  // namespace structure::providers
