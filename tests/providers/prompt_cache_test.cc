// Prompt caching in the wire formats: the documented minimums, when Anthropic's system prompt is
// marked with cache_control, and OpenAI's prompt_cache_key.
#include "providers/prompt_cache.h"

#include <gtest/gtest.h>

#include "providers/anthropic/anthropic_messages.h"
#include "providers/wire.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

Endpoint MakeEndpoint(ProviderKind kind) {
  Endpoint e;
  e.kind = kind;
  e.base_url = "http://127.0.0.1:9";
  e.api_key = "k";
  return e;
}

// A call whose system prompt is `bytes` long (about bytes / 4 tokens).
ProviderCall CallWithSystem(size_t bytes, std::string model = "claude-sonnet-4-5") {
  ProviderCall c = testing::BasicCall();
  c.model = std::move(model);
  c.system = std::string(bytes, 'm');
  c.cache_key = "user-action-record@1.2";
  return c;
}

Json Body(const ProviderCall& call, ProviderKind kind) {
  auto req = BuildRequest(call, MakeEndpoint(kind));
  EXPECT_TRUE(req.ok()) << req.status().ToString();
  return req.ok() ? *ParseJson(req->body) : Json();
}

TEST(PromptCacheTest, DocumentedMinimumsPerModel) {
  const auto a = ProviderKind::kAnthropic;
  EXPECT_EQ(DocumentedCacheMinTokens(a, "claude-sonnet-4-5"), 1024);
  EXPECT_EQ(DocumentedCacheMinTokens(a, "claude-opus-4-1-20250805"), 1024);
  EXPECT_EQ(DocumentedCacheMinTokens(a, "claude-opus-4-5-20251101"), 4096);
  EXPECT_EQ(DocumentedCacheMinTokens(a, "claude-opus-4-6"), 4096);
  EXPECT_EQ(DocumentedCacheMinTokens(a, "claude-haiku-4-5-20251001"), 4096);
  EXPECT_EQ(DocumentedCacheMinTokens(a, "claude-3-5-haiku-20241022"), 2048);
  EXPECT_EQ(DocumentedCacheMinTokens(a, "claude-3-haiku-20240307"), 2048);
  EXPECT_EQ(DocumentedCacheMinTokens(a, "some-future-model"), 1024);
  EXPECT_EQ(DocumentedCacheMinTokens(ProviderKind::kOpenRouter, "anthropic/claude-haiku-4.5"),
            4096);
  EXPECT_EQ(DocumentedCacheMinTokens(ProviderKind::kOpenAi, "gpt-4o-mini"), 1024);
  EXPECT_EQ(DocumentedCacheMinTokens(ProviderKind::kGemini, "gemini-2.5-flash"), 2048);
  EXPECT_EQ(DocumentedCacheMinTokens(ProviderKind::kOllama, "llama3"), 0);
  EXPECT_EQ(DocumentedCacheMinTokens(ProviderKind::kOpenAiCompat, "qwen"), 0);
}

TEST(PromptCacheTest, AnthropicMarksTheSystemPromptOnceItReachesTheModelsMinimum) {
  // 1024 tokens for Sonnet: the schema (~40 tokens) plus a 4000-byte system prompt reach it.
  Json marked = Body(CallWithSystem(4000), ProviderKind::kAnthropic);
  const Json* system = marked.find("system");
  ASSERT_TRUE(system && system->is_array()) << ToJson(marked);
  ASSERT_EQ(system->size(), 1u);
  const Json& block = system->as_array()[0];
  EXPECT_EQ(*block.find("type"), Json("text"));
  EXPECT_EQ(block.find("text")->as_string(), std::string(4000, 'm'));
  EXPECT_EQ(ToJson(*block.find("cache_control")), R"({"type":"ephemeral"})");
  // The user's text stays outside the cached prefix, in the messages.
  EXPECT_EQ(marked.find("messages")
                ->as_array()[0]
                .find("content")
                ->as_array()[0]
                .find("text")
                ->as_string(),
            "Ada Lovelace, 36, mathematician.");

  // Too short for Sonnet, and too short for Haiku 4.5's 4096 even at 8000 bytes: a plain string.
  EXPECT_TRUE(Body(CallWithSystem(1000), ProviderKind::kAnthropic).find("system")->is_string());
  EXPECT_TRUE(Body(CallWithSystem(8000, "claude-haiku-4-5"), ProviderKind::kAnthropic)
                  .find("system")
                  ->is_string());
}

TEST(PromptCacheTest, ConfiguredMinimumReplacesTheDocumentedOneAndNegativeTurnsMarkingOff) {
  ProviderCall low = CallWithSystem(1000);
  low.cache_min_tokens = 200;
  EXPECT_TRUE(Body(low, ProviderKind::kAnthropic).find("system")->is_array());
  ProviderCall off = CallWithSystem(40000);
  off.cache_min_tokens = -1;
  EXPECT_TRUE(Body(off, ProviderKind::kAnthropic).find("system")->is_string());
  EXPECT_FALSE(
      ShouldMarkCachePrefix(off, FamilyFor(MakeEndpoint(ProviderKind::kAnthropic), off.model)));
  EXPECT_GE(EstimatePrefixTokens(CallWithSystem(4000)), 1000);
}

TEST(PromptCacheTest, OpenAiSendsThePromptCacheKeyOthersDoNot) {
  ProviderCall c = CallWithSystem(100);
  EXPECT_EQ(*Body(c, ProviderKind::kOpenAi).find("prompt_cache_key"),
            Json("user-action-record@1.2"));
  for (ProviderKind k : {ProviderKind::kOpenAiCompat, ProviderKind::kOpenRouter,
                         ProviderKind::kAnthropic, ProviderKind::kGemini, ProviderKind::kOllama}) {
    EXPECT_EQ(Body(c, k).find("prompt_cache_key"), nullptr) << ProviderKindName(k);
  }
  c.cache_key.clear();
  EXPECT_EQ(Body(c, ProviderKind::kOpenAi).find("prompt_cache_key"), nullptr);
}

// Claude through OpenRouter caches only what is marked, as it does directly: the system message
// goes as one text part with cache_control (OpenRouter passes it on). Before, it never cached.
TEST(PromptCacheTest, OpenRouterMarksTheSystemPromptForClaudeOnly) {
  Json claude =
      Body(CallWithSystem(4000, "anthropic/claude-sonnet-4.5"), ProviderKind::kOpenRouter);
  const Json& system = claude.find("messages")->as_array()[0];
  EXPECT_EQ(*system.find("role"), Json("system"));
  ASSERT_TRUE(system.find("content")->is_array()) << ToJson(claude);
  const Json& part = system.find("content")->as_array()[0];
  EXPECT_EQ(part.find("text")->as_string(), std::string(4000, 'm'));
  EXPECT_EQ(ToJson(*part.find("cache_control")), R"({"type":"ephemeral"})");
  // Too short for the model's minimum, another vendor, or caching off: the plain string.
  EXPECT_TRUE(Body(CallWithSystem(1000, "anthropic/claude-sonnet-4.5"), ProviderKind::kOpenRouter)
                  .find("messages")
                  ->as_array()[0]
                  .find("content")
                  ->is_string());
  EXPECT_TRUE(Body(CallWithSystem(40000, "openai/gpt-4o"), ProviderKind::kOpenRouter)
                  .find("messages")
                  ->as_array()[0]
                  .find("content")
                  ->is_string());
  ProviderCall off = CallWithSystem(40000, "anthropic/claude-sonnet-4.5");
  off.cache_min_tokens = -1;
  EXPECT_TRUE(Body(off, ProviderKind::kOpenRouter)
                  .find("messages")
                  ->as_array()[0]
                  .find("content")
                  ->is_string());
}

TEST(PromptCacheTest, GeminiAndOllamaKeepTheSystemPromptFirstAndUnmarked) {
  ProviderCall c = CallWithSystem(8000, "gemini-2.5-flash");
  Json g = Body(c, ProviderKind::kGemini);
  EXPECT_EQ(g.find("systemInstruction")->find("parts")->as_array()[0].find("text")->as_string(),
            c.system);
  Json o = Body(c, ProviderKind::kOllama);
  EXPECT_EQ(*o.find("messages")->as_array()[0].find("role"), Json("system"));
}

}  // namespace
}  // namespace structure::providers
