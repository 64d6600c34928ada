// The simulator's prompt cache: each provider's counting (implicit blocks for OpenAI and Gemini,
// marked prefixes for Anthropic, nothing for Ollama), unit by unit and over real HTTP.
#include "sim/prompt_cache.h"

#include <gtest/gtest.h>

#include "tests/sim/sim_test_client.h"

namespace structure::sim {
namespace {

using testing::AnthropicHeaders;
using testing::OpenAiHeaders;
using testing::Post;

ChatRequest Request(Provider p, const std::string& system, const std::string& user,
                    bool mark_system = false) {
  ChatRequest r;
  r.provider = p;
  r.model = "model-x";
  r.messages.push_back({"system", system, mark_system});
  r.messages.push_back({"user", user, false});
  return r;
}

TEST(SimPromptCacheTest, OpenAiCachesTheSeenPrefixInBlocksOf128TokensFrom1024) {
  PromptCache cache;
  std::string manual(6000, 'a');  // 1500 tokens
  CacheUsage first = cache.Account(Request(Provider::kOpenAi, manual, "record one"), 1024);
  EXPECT_EQ(first.read, 0);
  CacheUsage second = cache.Account(Request(Provider::kOpenAi, manual, "record two"), 1024);
  EXPECT_EQ(second.read, 1408);  // 11 whole blocks of 512 bytes lie inside the shared 6000
  EXPECT_EQ(second.read % 128, 0);
  EXPECT_EQ(second.written, 0);
  // A short shared prefix stays below the minimum.
  std::string small(2000, 'b');
  cache.Account(Request(Provider::kOpenAi, small, "x"), 1024);
  EXPECT_EQ(cache.Account(Request(Provider::kOpenAi, small, "y"), 1024).read, 0);
  // Another model has its own cache.
  ChatRequest other = Request(Provider::kOpenAi, manual, "record three");
  other.model = "model-y";
  EXPECT_EQ(cache.Account(other, 1024).read, 0);
}

TEST(SimPromptCacheTest, AnthropicWritesThenReadsOnlyAMarkedPrefix) {
  PromptCache cache;
  std::string manual(8000, 'c');  // 2000 tokens
  // Unmarked: nothing, however often it is seen.
  EXPECT_EQ(cache.Account(Request(Provider::kAnthropic, manual, "a"), 1024).written, 0);
  EXPECT_EQ(cache.Account(Request(Provider::kAnthropic, manual, "b"), 1024).read, 0);
  CacheUsage first = cache.Account(Request(Provider::kAnthropic, manual, "a", true), 1024);
  EXPECT_EQ(first.written, 2000);
  EXPECT_EQ(first.read, 0);
  CacheUsage second = cache.Account(Request(Provider::kAnthropic, manual, "b", true), 1024);
  EXPECT_EQ(second.read, 2000);
  EXPECT_EQ(second.written, 0);
  // Marked but below the model's minimum: not cached.
  EXPECT_EQ(cache.Account(Request(Provider::kAnthropic, manual, "c", true), 4096).written, 0);
}

TEST(SimPromptCacheTest, GeminiCachesImplicitlyAndOllamaNever) {
  PromptCache cache;
  std::string manual(20000, 'd');
  cache.Account(Request(Provider::kGemini, manual, "a"), 2048);
  EXPECT_GE(cache.Account(Request(Provider::kGemini, manual, "b"), 2048).read, 2048);
  cache.Account(Request(Provider::kOllama, manual, "a"), 1024);
  EXPECT_EQ(cache.Account(Request(Provider::kOllama, manual, "b"), 1024).read, 0);
  EXPECT_EQ(CacheMinTokens(Provider::kOllama, "llama3"), 0);
  EXPECT_EQ(CacheMinTokens(Provider::kAnthropic, "claude-haiku-4-5"), 4096);
}

Json AnthropicBody(const std::string& system, const std::string& user, bool mark) {
  Json block = Json::MakeObject();
  block.set("type", "text");
  block.set("text", system);
  if (mark) block.set("cache_control", Json(Json::Object{{"type", "ephemeral"}}));
  Json body = Json::MakeObject();
  body.set("model", "claude-sonnet-4-5");
  body.set("max_tokens", 64);
  body.set("system", Json(Json::Array{block}));
  body.set("messages", Json(Json::Array{Json(Json::Object{{"role", "user"}, {"content", user}})}));
  return body;
}

TEST(SimPromptCacheTest, AnthropicUsageOverHttpSplitsInputReadAndWritten) {
  auto sim = testing::StartSim();
  std::string manual(8000, 'e');
  auto first = Post(sim->port(), "/v1/messages", AnthropicHeaders(),
                    ToJson(AnthropicBody(manual, "first record", true)));
  ASSERT_EQ(first.status, 200) << first.body;
  const Json& u1 = *first.json.find("usage");
  EXPECT_EQ(u1.find("cache_creation_input_tokens")->as_int(), 2000);
  EXPECT_EQ(u1.find("cache_read_input_tokens")->as_int(), 0);
  EXPECT_EQ(u1.find("input_tokens")->as_int(), 3);  // "first record": the uncached rest
  auto second = Post(sim->port(), "/v1/messages", AnthropicHeaders(),
                     ToJson(AnthropicBody(manual, "second record", true)));
  ASSERT_EQ(second.status, 200) << second.body;
  const Json& u2 = *second.json.find("usage");
  EXPECT_EQ(u2.find("cache_read_input_tokens")->as_int(), 2000);
  EXPECT_EQ(u2.find("cache_creation_input_tokens")->as_int(), 0);
  auto stats = testing::Get(sim->port(), "/stats");
  EXPECT_EQ(stats.json.find("tokens")->find("cache_write")->as_int(), 2000);
  EXPECT_EQ(stats.json.find("tokens")->find("cached_input")->as_int(), 2000);
}

TEST(SimPromptCacheTest, AnthropicRejectsABadCacheControlAndMoreThanFourBreakpoints) {
  auto sim = testing::StartSim();
  Json bad = AnthropicBody("x", "y", false);
  Json block = Json::MakeObject();
  block.set("type", "text");
  block.set("text", "x");
  block.set("cache_control", Json(Json::Object{{"type", "persistent"}}));
  bad.set("system", Json(Json::Array{block}));
  auto r = Post(sim->port(), "/v1/messages", AnthropicHeaders(), ToJson(bad));
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_NE(r.body.find("system.0.cache_control.type"), std::string::npos) << r.body;

  Json many = AnthropicBody("x", "y", false);
  Json marked = Json::MakeObject();
  marked.set("type", "text");
  marked.set("text", "x");
  marked.set("cache_control", Json(Json::Object{{"type", "ephemeral"}}));
  Json blocks = Json::MakeArray();
  for (int i = 0; i < 5; ++i) blocks.push_back(marked);
  many.set("system", std::move(blocks));
  r = Post(sim->port(), "/v1/messages", AnthropicHeaders(), ToJson(many));
  EXPECT_EQ(r.status, 400) << r.body;
  EXPECT_NE(r.body.find("A maximum of 4 blocks with cache_control"), std::string::npos) << r.body;
}

Json OpenAiBody(const std::string& system, const std::string& user, const std::string& key) {
  Json body = Json::MakeObject();
  body.set("model", "gpt-4o-mini");
  Json msgs = Json::MakeArray();
  msgs.push_back(Json(Json::Object{{"role", "system"}, {"content", system}}));
  msgs.push_back(Json(Json::Object{{"role", "user"}, {"content", user}}));
  body.set("messages", std::move(msgs));
  if (!key.empty()) body.set("prompt_cache_key", key);
  return body;
}

TEST(SimPromptCacheTest, OpenAiReportsCachedTokensAndChecksThePromptCacheKey) {
  auto sim = testing::StartSim();
  std::string manual(6000, 'f');
  auto first = Post(sim->port(), "/v1/chat/completions", OpenAiHeaders(),
                    ToJson(OpenAiBody(manual, "first", "contact@1.0")));
  ASSERT_EQ(first.status, 200) << first.body;
  auto second = Post(sim->port(), "/v1/chat/completions", OpenAiHeaders(),
                     ToJson(OpenAiBody(manual, "second", "contact@1.0")));
  ASSERT_EQ(second.status, 200) << second.body;
  auto cached = [](const testing::HttpReply& r) {
    return r.json.find("usage")->find("prompt_tokens_details")->find("cached_tokens")->as_int();
  };
  EXPECT_EQ(cached(first), 0);
  EXPECT_EQ(cached(second), 1408);
  EXPECT_GE(second.json.find("usage")->find("prompt_tokens")->as_int(), cached(second));
  auto too_long = Post(sim->port(), "/v1/chat/completions", OpenAiHeaders(),
                       ToJson(OpenAiBody("s", "u", std::string(65, 'k'))));
  EXPECT_EQ(too_long.status, 400);
  EXPECT_NE(too_long.body.find("maximum length 64, but got a string with length 65"),
            std::string::npos)
      << too_long.body;
}

}  // namespace
}  // namespace structure::sim
