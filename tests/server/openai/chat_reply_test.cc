#include "server/openai/chat_reply.h"

#include <gtest/gtest.h>

#include <set>

namespace structure::server::openai {
namespace {

using pipeline::Outcome;
using pipeline::StructureResult;

ReplyContext Context() {
  ReplyContext c;
  c.id = "chatcmpl-abc";
  c.created = 1700000000;
  c.model = "default:fast";
  return c;
}

StructureResult Ok() {
  StructureResult r;
  r.status = Outcome::kOk;
  r.data = *ParseJson(R"({"id":"T-7","n":3})");
  r.iterations = 2;
  r.schema_origin = "inline";
  r.mode = "strict";
  r.usage.input_tokens = 120;
  r.usage.output_tokens = 30;
  r.usage.cached_input_tokens = 64;
  r.usage.reasoning_tokens = 8;
  return r;
}

// The JSON of each "data: ..." event but [DONE].
std::vector<Json> Events(const std::string& text, bool* done) {
  std::vector<Json> out;
  size_t at = 0;
  *done = false;
  while ((at = text.find("data: ", at)) != std::string::npos) {
    size_t end = text.find("\n\n", at);
    std::string data = text.substr(at + 6, end - at - 6);
    at = end;
    if (data == "[DONE]") {
      *done = true;
      continue;
    }
    out.push_back(*ParseJson(data));
  }
  return out;
}

TEST(ChatReplyTest, CompletionHoldsTheObjectUsageAndStructure) {
  Json j = *ParseJson(CompletionJson(Ok(), Context()));
  EXPECT_EQ(*j.find("object"), Json("chat.completion"));
  EXPECT_EQ(*j.find("id"), Json("chatcmpl-abc"));
  EXPECT_EQ(*j.find("model"), Json("default:fast"));
  const Json& choice = j.find("choices")->as_array()[0];
  EXPECT_EQ(*choice.find("finish_reason"), Json("stop"));
  const Json& message = *choice.find("message");
  EXPECT_EQ(*message.find("role"), Json("assistant"));
  EXPECT_EQ(*message.find("content"), Json(R"({"id":"T-7","n":3})"));
  EXPECT_TRUE(message.find("refusal")->is_null());
  EXPECT_EQ(ToJson(*j.find("usage")),
            R"({"prompt_tokens":120,"completion_tokens":30,"total_tokens":150,)"
            R"("prompt_tokens_details":{"cached_tokens":64},)"
            R"("completion_tokens_details":{"reasoning_tokens":8}})");
  EXPECT_EQ(ToJson(*j.find("structure")),
            R"({"status":"ok","iterations":2,"schemaOrigin":"inline","mode":"strict"})");
}

// The body is written as text directly: these are its exact bytes (OpenAI's member order,
// compact, the answer escaped once inside content).
TEST(ChatReplyTest, CompletionTextIsCompactInOpenAisMemberOrder) {
  EXPECT_EQ(CompletionJson(Ok(), Context()),
            R"({"id":"chatcmpl-abc","object":"chat.completion","created":1700000000,)"
            R"("model":"default:fast","choices":[{"index":0,"message":{"role":"assistant",)"
            R"("content":"{\"id\":\"T-7\",\"n\":3}","refusal":null},"logprobs":null,)"
            R"("finish_reason":"stop"}],"usage":{"prompt_tokens":120,"completion_tokens":30,)"
            R"("total_tokens":150,"prompt_tokens_details":{"cached_tokens":64},)"
            R"("completion_tokens_details":{"reasoning_tokens":8}},"structure":{"status":"ok",)"
            R"("iterations":2,"schemaOrigin":"inline","mode":"strict"}})");
  ReplyContext c = Context();
  c.tool_name = "emit";
  EXPECT_NE(CompletionJson(Ok(), c).find(R"("refusal":null,"tool_calls":[{"id":"call_abc",)"
                                         R"("type":"function","function":{"name":"emit",)"
                                         R"("arguments":"{\"id\":\"T-7\",\"n\":3}"}}]},)"),
            std::string::npos);
}

TEST(ChatReplyTest, ForcedToolAnswersWithThatToolsCall) {
  ReplyContext c = Context();
  c.tool_name = "Ticket";
  Json j = *ParseJson(CompletionJson(Ok(), c));
  const Json& choice = j.find("choices")->as_array()[0];
  EXPECT_EQ(*choice.find("finish_reason"), Json("tool_calls"));
  const Json& message = *choice.find("message");
  EXPECT_TRUE(message.find("content")->is_null());
  const Json& call = message.find("tool_calls")->as_array()[0];
  EXPECT_EQ(*call.find("type"), Json("function"));
  EXPECT_EQ(*call.find("function")->find("name"), Json("Ticket"));
  EXPECT_EQ(*call.find("function")->find("arguments"), Json(R"({"id":"T-7","n":3})"));
}

TEST(ChatReplyTest, NeedMoreInputIsARefusalWithNullContent) {
  StructureResult need;
  need.status = Outcome::kNeedMoreInput;
  need.need = "the ticket id is not in the text";
  ReplyContext c = Context();
  EXPECT_FALSE(ResultError(need, c, "").has_value());
  Json j = *ParseJson(CompletionJson(need, c));
  const Json& message = *j.find("choices")->as_array()[0].find("message");
  EXPECT_TRUE(message.find("content")->is_null());
  EXPECT_EQ(*message.find("refusal"), Json("the ticket id is not in the text"));
  EXPECT_EQ(*j.find("structure")->find("need"), Json("the ticket id is not in the text"));
}

TEST(ChatReplyTest, NeedAsErrorIsA422) {
  StructureResult need;
  need.status = Outcome::kNeedMoreInput;
  need.need = "no id";
  ReplyContext c = Context();
  c.need = NeedAs::kError;
  auto e = ResultError(need, c, "");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->status, 422);
  EXPECT_EQ(e->code, "structure_need_more_input");
}

TEST(ChatReplyTest, StaleIsA422WithTheValidatorsMessages) {
  StructureResult stale;
  stale.status = Outcome::kStale;
  stale.iterations = 3;
  stale.errors = {"/id: does not match pattern ^T-[0-9]+$"};
  auto e = ResultError(stale, Context(), "");
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->status, 422);
  EXPECT_EQ(e->code, "structure_stale");
  EXPECT_NE(e->message.find("/id: does not match pattern"), std::string::npos);
  Json j = *ParseJson(ErrorJson(*e));
  EXPECT_EQ(*j.find("error")->find("code"), Json("structure_stale"));
  EXPECT_TRUE(j.find("error")->find("param")->is_null());
}

TEST(ChatReplyTest, ProviderFailuresMapToStatusesTheSdksRetry) {
  auto limited =
      ResultError(pipeline::ErrorResult(ErrorCode::kProviderRateLimited, "429 x3"), Context(), "");
  ASSERT_TRUE(limited.has_value());
  EXPECT_EQ(limited->status, 429);
  EXPECT_EQ(limited->type, "rate_limit_error");
  EXPECT_EQ(limited->code, "rate_limit_exceeded");
  EXPECT_GT(limited->retry_after_s, 0);
  EXPECT_EQ(*ErrorResponse(*limited).FindHeader("Retry-After"), "1");
  auto down =
      ResultError(pipeline::ErrorResult(ErrorCode::kProviderUnavailable, "503"), Context(), "");
  EXPECT_GE(down->status, 500);
  EXPECT_EQ(down->type, "server_error");
  auto bad = ResultError(pipeline::ErrorResult(ErrorCode::kBadSchema, "/type: must be a string"),
                         Context(), "response_format.json_schema.schema");
  EXPECT_EQ(bad->status, 400);
  EXPECT_EQ(bad->param, "response_format.json_schema.schema");
}

TEST(ChatReplyTest, ProviderFailuresTheSdksMustNotRetryAreNot5xx) {
  // A spent quota: OpenAI's own type and code, at 403 (the SDKs retry 429 and 5xx).
  auto quota = ResultError(
      pipeline::ErrorResult(ErrorCode::kProviderQuotaExhausted, "HTTP 429 from openai: quota"),
      Context(), "");
  ASSERT_TRUE(quota.has_value());
  EXPECT_EQ(quota->status, 403);
  EXPECT_EQ(quota->type, "insufficient_quota");
  EXPECT_EQ(quota->code, "insufficient_quota");
  EXPECT_FALSE(ErrorResponse(*quota).FindHeader("Retry-After"));
  // A certificate not accepted: a bad gateway, with the code the docs name.
  auto tls = ResultError(pipeline::ErrorResult(ErrorCode::kFailedPrecondition,
                                               "TLS certificate of api.example.com not accepted"),
                         Context(), "");
  EXPECT_EQ(tls->status, 502);
  EXPECT_EQ(tls->code, "failed_precondition");
  EXPECT_NE(tls->message.find("api.example.com"), std::string::npos);
}

TEST(ChatReplyTest, StreamSendsTheObjectWholeThenFinishUsageAndDone) {
  ReplyContext c = Context();
  c.include_usage = true;
  bool done = false;
  std::vector<Json> events = Events(CompletionEvents(Ok(), c), &done);
  EXPECT_TRUE(done);
  ASSERT_EQ(events.size(), 3u);
  for (const Json& e : events) EXPECT_EQ(*e.find("object"), Json("chat.completion.chunk"));
  const Json& delta = *events[0].find("choices")->as_array()[0].find("delta");
  EXPECT_EQ(*delta.find("content"), Json(R"({"id":"T-7","n":3})"));
  EXPECT_EQ(*delta.find("role"), Json("assistant"));
  EXPECT_EQ(*events[1].find("choices")->as_array()[0].find("finish_reason"), Json("stop"));
  EXPECT_EQ(events[2].find("choices")->size(), 0u);
  EXPECT_EQ(*events[2].find("usage")->find("total_tokens"), Json(150));
}

TEST(ChatReplyTest, StreamWithoutUsageOptionHasNoUsageChunk) {
  bool done = false;
  std::vector<Json> events = Events(CompletionEvents(Ok(), Context()), &done);
  EXPECT_TRUE(done);
  EXPECT_EQ(events.size(), 2u);
}

TEST(ChatReplyTest, StreamedToolCallCarriesItsIndex) {
  ReplyContext c = Context();
  c.tool_name = "Ticket";
  bool done = false;
  std::vector<Json> events = Events(CompletionEvents(Ok(), c), &done);
  const Json& delta = *events[0].find("choices")->as_array()[0].find("delta");
  EXPECT_EQ(*delta.find("tool_calls")->as_array()[0].find("index"), Json(0));
  EXPECT_EQ(*events[1].find("choices")->as_array()[0].find("finish_reason"), Json("tool_calls"));
}

TEST(ChatReplyTest, ErrorEventIsTheErrorShapeThenDone) {
  ApiError e;
  e.status = 422;
  e.code = "structure_stale";
  e.message = "m";
  bool done = false;
  std::vector<Json> events = Events(ErrorEvent(e), &done);
  EXPECT_TRUE(done);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(*events[0].find("error")->find("code"), Json("structure_stale"));
}

TEST(ChatReplyTest, CompletionIdsAreDistinct) {
  std::set<std::string> ids;
  for (int i = 0; i < 1000; ++i) ids.insert(NewCompletionId());
  EXPECT_EQ(ids.size(), 1000u);
  EXPECT_EQ(ids.begin()->rfind("chatcmpl-", 0), 0u);
}

}  // namespace
}  // namespace structure::server::openai
