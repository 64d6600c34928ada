// Reply shapes that real providers send and no usable recording shows (see
// tests/data/providers/recorded/SOURCES.md): each is read the way the provider means it.
#include <gtest/gtest.h>

#include "providers/wire.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

ProviderReply Parse(ProviderKind kind, const std::string& body) {
  auto r = ParseReply(kind, testing::Response(200, body));
  EXPECT_TRUE(r.ok()) << r.status().ToString();
  return r.ok() ? *r : ProviderReply{};
}

// OpenRouter and Vertex-hosted Claude leave `arguments` out of a call without arguments
// (OpenRouterTeam/ai-sdk-provider#287 shows the body); it was read as no answer at all.
TEST(ReplyVariantsTest, ToolCallWithoutArgumentsReadsAsAnEmptyObject) {
  for (const char* function : {R"({"name":"submit"})", R"({"name":"submit","arguments":null})",
                               R"({"name":"submit","arguments":""})"}) {
    ProviderReply r = Parse(ProviderKind::kOpenRouter,
                            std::string(R"({"model":"anthropic/claude-haiku-4.5","choices":[{
        "index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":"",
        "tool_calls":[{"id":"toolu_bdrk_01","type":"function","function":)") +
                                function + "}]}}]}");
    ASSERT_EQ(r.tool_calls.size(), 1u) << function;
    EXPECT_EQ(r.tool_calls[0].arguments, "{}") << function;
    EXPECT_EQ(r.finish, FinishKind::kToolUse);
  }
  ProviderReply ollama = Parse(ProviderKind::kOllama, R"({"model":"m","message":{"role":
    "assistant","content":"","tool_calls":[{"function":{"name":"submit"}}]},"done":true})");
  ASSERT_EQ(ollama.tool_calls.size(), 1u);
  EXPECT_EQ(ollama.tool_calls[0].arguments, "{}");
  ProviderReply gemini = Parse(ProviderKind::kGemini, R"({"candidates":[{"content":{"parts":[
    {"functionCall":{"name":"submit","args":null}}]},"finishReason":"STOP"}]})");
  ASSERT_EQ(gemini.tool_calls.size(), 1u);
  EXPECT_EQ(gemini.tool_calls[0].arguments, "{}");
}

// Mistral's reasoning models answer with a list of parts; the text parts are the answer, the
// thinking parts are kept as thoughts, other parts are skipped. It was read as empty.
TEST(ReplyVariantsTest, ContentAsPartsReadsTheTextPartsOnly) {
  ProviderReply r = Parse(ProviderKind::kOpenAiCompat, R"({"model":"magistral-small","choices":[{
    "index":0,"finish_reason":"stop","message":{"role":"assistant","content":[
      {"type":"thinking","thinking":[{"type":"text","text":"Ada is 36."}]},
      {"type":"text","text":"{\"name\":\"Ada\","},
      {"type":"reference","reference_ids":[1]},
      {"type":"text","text":"\"age\":36}"}]}}],
    "usage":{"prompt_tokens":10,"completion_tokens":20,"total_tokens":30}})");
  EXPECT_EQ(r.content, R"({"name":"Ada","age":36})");
  ASSERT_EQ(r.thoughts.size(), 1u);
  EXPECT_EQ(r.thoughts[0].text, "Ada is 36.");
  EXPECT_TRUE(r.usage.reasoning_unreported);
}

// Mistral replies without prompt_tokens_details carry their cache reads as num_cached_tokens;
// they came out as 0. The details, when present, win.
TEST(ReplyVariantsTest, MistralCachedTokensAreReadFromNumCachedTokens) {
  ProviderReply r = Parse(ProviderKind::kOpenAiCompat, R"({"model":"mistral-large-latest",
    "choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"{}"}}],
    "usage":{"prompt_tokens":2100,"completion_tokens":9,"total_tokens":2109,
             "num_cached_tokens":1984}})");
  EXPECT_EQ(r.usage.cached_input_tokens, 1984);
  EXPECT_EQ(r.usage.input_tokens, 2100);
  ProviderReply both = Parse(ProviderKind::kOpenAiCompat, R"({"choices":[{"index":0,
    "finish_reason":"stop","message":{"role":"assistant","content":"{}"}}],
    "usage":{"prompt_tokens":2100,"completion_tokens":9,"num_cached_tokens":7,
             "prompt_tokens_details":{"cached_tokens":1984}}})");
  EXPECT_EQ(both.usage.cached_input_tokens, 1984);
}

// Anthropic reports the thinking share of output_tokens in usage.output_tokens_details
// (thinking_tokens; anthropic-sdk-python 0.105.0 types, generated from the API spec). A reply
// that thought and has no such count says so instead of claiming 0 reasoning tokens.
TEST(ReplyVariantsTest, AnthropicThinkingWithoutACountIsMarkedUnreported) {
  const std::string blocks =
      R"({"type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[
      {"type":"thinking","thinking":"36","signature":"sig"},{"type":"text","text":"{}"}],
      "stop_reason":"end_turn","usage":{"input_tokens":10,"output_tokens":40)";
  ProviderReply counted = Parse(ProviderKind::kAnthropic,
                                blocks + R"(,"output_tokens_details":{"thinking_tokens":30}}})");
  EXPECT_EQ(counted.usage.reasoning_tokens, 30);
  EXPECT_FALSE(counted.usage.reasoning_unreported);
  ProviderReply uncounted = Parse(ProviderKind::kAnthropic, blocks + "}}");
  EXPECT_EQ(uncounted.usage.reasoning_tokens, 0);
  EXPECT_TRUE(uncounted.usage.reasoning_unreported);
  ProviderReply plain = Parse(ProviderKind::kAnthropic, R"({"type":"message","content":[
    {"type":"text","text":"{}"}],"stop_reason":"end_turn","usage":{"input_tokens":1,
    "output_tokens":2}})");
  EXPECT_FALSE(plain.usage.reasoning_unreported);
}

// An Ollama thinking model (think unset: Ollama's default is to think) that put its whole answer
// in `thinking` and left `content` empty ended the call stale; the thinking is its answer.
TEST(ReplyVariantsTest, OllamaThinkingOnlyReplyAnswersFromTheThinking) {
  ProviderReply r = Parse(ProviderKind::kOllama, R"({"model":"qwen3","message":{
    "role":"assistant","content":"","thinking":"{\"name\":\"Ada\",\"age\":36}"},
    "done":true,"done_reason":"stop","prompt_eval_count":30,"eval_count":12})");
  EXPECT_EQ(r.content, R"({"name":"Ada","age":36})");
  EXPECT_EQ(r.finish, FinishKind::kStop);
  EXPECT_TRUE(r.thoughts.empty());
}

TEST(ReplyVariantsTest, OllamaThinkingNextToAnAnswerOrCutOffIsAThought) {
  ProviderReply both = Parse(ProviderKind::kOllama, R"({"model":"qwen3","message":{
    "role":"assistant","content":"{}","thinking":"Ada is 36."},"done":true,
    "done_reason":"stop","prompt_eval_count":30,"eval_count":40})");
  EXPECT_EQ(both.content, "{}");
  ASSERT_EQ(both.thoughts.size(), 1u);
  EXPECT_TRUE(both.usage.reasoning_unreported);  // eval_count holds it, never split out
  ProviderReply cut = Parse(ProviderKind::kOllama, R"({"model":"qwen3","message":{
    "role":"assistant","content":"","thinking":"Let me think about"},"done":true,
    "done_reason":"length","prompt_eval_count":30,"eval_count":256})");
  EXPECT_EQ(cut.content, "");
  EXPECT_EQ(cut.finish, FinishKind::kLength);
  EXPECT_EQ(cut.thoughts.size(), 1u);
}

// xAI counts reasoning outside completion_tokens (its total_tokens is prompt + completion +
// reasoning, tests/data/providers/recorded/openai_compat/xai_*.json); output_tokens always
// includes the thinking, as OpenAI's does.
TEST(ReplyVariantsTest, ReasoningOutsideCompletionTokensIsAddedToOutput) {
  ProviderReply outside = Parse(ProviderKind::kOpenAiCompat, R"({"choices":[{"index":0,
    "finish_reason":"stop","message":{"role":"assistant","content":"{}"}}],
    "usage":{"prompt_tokens":12,"completion_tokens":2,"total_tokens":334,
             "completion_tokens_details":{"reasoning_tokens":320}}})");
  EXPECT_EQ(outside.usage.output_tokens, 322);
  EXPECT_EQ(outside.usage.reasoning_tokens, 320);
  ProviderReply inside = Parse(ProviderKind::kOpenAi, R"({"choices":[{"index":0,
    "finish_reason":"stop","message":{"role":"assistant","content":"{}"}}],
    "usage":{"prompt_tokens":18,"completion_tokens":345,"total_tokens":363,
             "completion_tokens_details":{"reasoning_tokens":315}}})");
  EXPECT_EQ(inside.usage.output_tokens, 345);
}

// A refusal without text: Anthropic's stop_details.explanation says why.
TEST(ReplyVariantsTest, AnthropicRefusalWithoutTextTakesTheStopDetails) {
  ProviderReply r = Parse(ProviderKind::kAnthropic, R"({"type":"message","content":[],
    "stop_reason":"refusal","stop_details":{"type":"refusal","category":"cyber",
    "explanation":"Blocked under the usage policy."},"usage":{"input_tokens":18,
    "output_tokens":5}})");
  EXPECT_EQ(r.finish, FinishKind::kRefusal);
  EXPECT_EQ(r.refusal, "Blocked under the usage policy.");
}

}  // namespace
}  // namespace structure::providers
