// Prompt caching end to end: Anthropic writes the stable prefix once and reads it after, a
// profile can turn the mark off, OpenAI and Gemini cache the shared prefix by themselves.
#include <gtest/gtest.h>

#include <string>

#include "engine/engine_internal.h"
#include "tests/engine/engine_test_fixture.h"

namespace structure {
namespace {

using testing::EngineTest;
using testing::PutLongManualSchema;

TEST_F(EngineTest, AnthropicWritesTheStablePrefixOnceThenReadsIt) {
  ASSERT_NO_FATAL_FAILURE(
      PutLongManualSchema(EngineInternal::Schemas(*engine_), "cache-a", "anthropic"));
  const char* req =
      R"({"prompt":"CASE-GENERATE %s","schemaName":"cached-ticket","tenant":"cache-a","model":"anthropic"})";
  auto run = [&](const char* text) {
    std::string body(req);
    body.replace(body.find("%s"), 2, text);
    return Run(body);
  };
  StructureResult first = run("first ticket");
  StructureResult second = run("second ticket");
  ASSERT_EQ(first.status, Outcome::kOk) << ToJson(ResultToJson(first));
  ASSERT_EQ(second.status, Outcome::kOk) << ToJson(ResultToJson(second));
  EXPECT_GT(first.usage.cache_write_tokens, 2000);
  EXPECT_EQ(first.usage.cached_input_tokens, 0);
  EXPECT_EQ(second.usage.cached_input_tokens, first.usage.cache_write_tokens);
  EXPECT_EQ(second.usage.cache_write_tokens, 0);
  EXPECT_GT(second.usage.input_tokens, second.usage.cached_input_tokens);
  Json usage = *ResultToJson(second).find("usage");
  EXPECT_EQ(usage.find("cachedInputTokens")->as_int(), second.usage.cached_input_tokens);
}

TEST_F(EngineTest, PromptCacheOffInTheProfileSendsNoCacheMark) {
  ASSERT_NO_FATAL_FAILURE(
      PutLongManualSchema(EngineInternal::Schemas(*engine_), "cache-b", "nocache"));
  const char* req =
      R"({"prompt":"CASE-GENERATE x","schemaName":"cached-ticket","tenant":"cache-b","model":"anthropic_nocache"})";
  StructureResult first = Run(req);
  StructureResult second = Run(req);
  ASSERT_EQ(second.status, Outcome::kOk) << ToJson(ResultToJson(second));
  EXPECT_EQ(first.usage.cache_write_tokens + second.usage.cache_write_tokens, 0);
  EXPECT_EQ(second.usage.cached_input_tokens, 0);
}

TEST_F(EngineTest, OpenAiAndGeminiCacheTheSharedPrefixImplicitly) {
  ASSERT_NO_FATAL_FAILURE(
      PutLongManualSchema(EngineInternal::Schemas(*engine_), "cache-c", "implicit", 20000));
  // 20000 bytes reach Gemini's 4096-token minimum for a model it does not list.
  for (const char* model : {"openai", "gemini"}) {
    std::string req =
        std::string(
            R"({"prompt":"CASE-GENERATE a","schemaName":"cached-ticket","tenant":"cache-c","model":")") +
        model + R"("})";
    StructureResult first = Run(req);
    StructureResult second = Run(req);
    ASSERT_EQ(second.status, Outcome::kOk) << model << ToJson(ResultToJson(second));
    EXPECT_EQ(first.usage.cached_input_tokens, 0) << model;
    EXPECT_GE(second.usage.cached_input_tokens, 1024) << model;
    EXPECT_EQ(second.usage.cache_write_tokens, 0) << model;
  }
}

}  // namespace
}  // namespace structure
