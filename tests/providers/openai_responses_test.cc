// OpenAI's Responses API (providers/openai/openai_responses.h): which calls go there (the
// provider's `api`, else the model table's column), the bodies it builds, checked against the
// published CreateResponse schema (tests/data/request_schemas/openai_responses.json), reasoning
// items carried into a re-ask, batch lines on /v1/responses, and replies in the documented
// Response shape (recorded replies: recorded_replies_test.cc).
#include "providers/openai/openai_responses.h"

#include <gtest/gtest.h>

#include "providers/models.h"
#include "providers/openai/openai_batch.h"
#include "providers/wire.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

Endpoint OpenAi(OpenAiApi api = OpenAiApi::kByModel) {
  Endpoint e = testing::TestEndpoint(ProviderKind::kOpenAi, "sk-test");
  e.openai_api = api;
  return e;
}

Json Body(const HttpRequest& r) {
  auto parsed = ParseJson(r.body);
  EXPECT_TRUE(parsed.ok()) << r.body;
  return parsed.ok() ? *parsed : Json();
}

void ExpectPublished(const HttpRequest& r) {
  for (const std::string& issue : testing::PublishedSchemaIssues("openai_responses", r.body)) {
    ADD_FAILURE() << issue << "\n" << r.body;
  }
}

ProviderCall FinalToolOn(const char* model, const char* effort) {
  ProviderCall c = testing::ToolCallHistory();
  c.model = model;
  c.thinking.effort = effort;
  return c;
}

TEST(OpenAiResponsesTest, TheModelTableChoosesTheApiUnlessTheProviderSays) {
  struct Case {
    const char* model;
    OpenAiApi api;
    const char* path;
  };
  const Case cases[] = {
      {"gpt-5.4", OpenAiApi::kByModel, "/v1/responses"},
      {"gpt-5.2-pro", OpenAiApi::kByModel, "/v1/responses"},
      {"gpt-5.1", OpenAiApi::kByModel, "/v1/chat/completions"},
      {"gpt-5-mini", OpenAiApi::kByModel, "/v1/chat/completions"},
      {"gpt-4o", OpenAiApi::kByModel, "/v1/chat/completions"},
      {"gpt-5.4", OpenAiApi::kChat, "/v1/chat/completions"},
      {"gpt-4o", OpenAiApi::kResponses, "/v1/responses"},
  };
  for (const Case& c : cases) {
    ProviderCall call = testing::BasicCall();
    call.model = c.model;
    auto r = BuildRequest(call, OpenAi(c.api));
    ASSERT_TRUE(r.ok()) << c.model << ": " << r.status().ToString();
    EXPECT_EQ(r->url, std::string("http://127.0.0.1:9") + c.path)
        << c.model << " api " << OpenAiApiName(c.api);
  }
  // OpenAI-compatible servers and OpenRouter keep chat completions whatever the model.
  ProviderCall call = testing::BasicCall();
  call.model = "gpt-5.4";
  Endpoint compat = testing::TestEndpoint(ProviderKind::kOpenAiCompat, "");
  EXPECT_EQ(BuildRequest(call, compat)->url, "http://127.0.0.1:9/v1/chat/completions");
  call.model = "openai/gpt-5.4";
  Endpoint router = testing::TestEndpoint(ProviderKind::kOpenRouter, "k");
  EXPECT_EQ(BuildRequest(call, router)->url, "http://127.0.0.1:9/v1/chat/completions");
}

// gpt-5.4 with reasoning in final-tool mode with the need tool: the call chat completions
// refuses, in the Responses shape.
TEST(OpenAiResponsesTest, FinalToolWithReasoningHasTheResponsesShape) {
  auto r = BuildRequest(FinalToolOn("gpt-5.4", "high"), OpenAi());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectPublished(*r);
  Json b = Body(*r);
  EXPECT_EQ(b["model"], Json("gpt-5.4"));
  EXPECT_EQ(b["instructions"], Json("Extract the person."));
  EXPECT_EQ(b["max_output_tokens"], Json(int64_t{256}));
  EXPECT_EQ(b["reasoning"], *ParseJson(R"({"effort":"high"})"));
  EXPECT_EQ(b["store"], Json(false));
  EXPECT_EQ(b["include"], *ParseJson(R"(["reasoning.encrypted_content"])"));
  // Both tools: one of them must be called.
  EXPECT_EQ(b["tool_choice"], Json("required"));
  EXPECT_EQ(b["parallel_tool_calls"], Json(false));
  Json& tools = b["tools"];
  ASSERT_EQ(tools.size(), 2u);
  Json& submit = tools.as_array()[0];
  EXPECT_EQ(submit["type"], Json("function"));
  EXPECT_EQ(submit["name"], Json("submit_person"));
  EXPECT_EQ(submit["strict"], Json(true));
  EXPECT_EQ(submit["parameters"], testing::PersonSchema());
  EXPECT_EQ(submit.find("function"), nullptr) << "the chat completions nesting";
  EXPECT_EQ(tools.as_array()[1]["name"], Json("need_more_input"));
  // No field of chat completions.
  for (const char* field :
       {"messages", "reasoning_effort", "max_completion_tokens", "response_format", "seed"}) {
    EXPECT_EQ(b.find(field), nullptr) << field;
  }
  // The rejected call and its error, as function_call and function_call_output items.
  Json& input = b["input"];
  ASSERT_EQ(input.size(), 3u) << r->body;
  EXPECT_EQ(input.as_array()[0], *ParseJson(R"({"role":"user",
      "content":"Ada Lovelace, 36, mathematician."})"));
  EXPECT_EQ(input.as_array()[1], *ParseJson(R"({"type":"function_call","call_id":"call_1",
      "name":"submit_person","arguments":"{\"name\":\"Ada\",\"age\":-1}"})"));
  EXPECT_EQ(input.as_array()[2], *ParseJson(R"j({"type":"function_call_output",
      "call_id":"call_1","output":"Error: /age: value must be >= 0 (was -1)"})j"));
}

TEST(OpenAiResponsesTest, FinalToolAloneIsForcedByName) {
  ProviderCall call = FinalToolOn("gpt-5.4", "low");
  call.need = NeedChannel::kNone;
  auto r = BuildRequest(call, OpenAi());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectPublished(*r);
  Json b = Body(*r);
  EXPECT_EQ(b["tool_choice"], *ParseJson(R"({"type":"function","name":"submit_person"})"));
  EXPECT_EQ(b["tools"].size(), 1u);
  EXPECT_EQ(b.find("text"), nullptr);
}

TEST(OpenAiResponsesTest, SchemaModeGoesInTextFormat) {
  ProviderCall call = testing::BasicCall();
  call.model = "gpt-5.4";
  call.cache_key = "schema-abc";
  call.user = "end-user-7";
  auto r = BuildRequest(call, OpenAi());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectPublished(*r);
  Json b = Body(*r);
  Json format = *ParseJson(R"({"type":"json_schema","name":"person","strict":true})");
  format.set("schema", testing::PersonSchema());
  EXPECT_EQ(b["text"], Json(Json::Object{{"format", format}}));
  EXPECT_EQ(b.find("tools"), nullptr);
  EXPECT_EQ(b["prompt_cache_key"], Json("schema-abc"));
  EXPECT_EQ(b["user"], Json("end-user-7"));
  // gpt-5.4 takes no sampling parameters; the test call asks temperature 0.
  EXPECT_EQ(b.find("temperature"), nullptr);

  // The need tool next to the schema: offered, not forced.
  call.need = NeedChannel::kTool;
  call.need_schema = testing::ToolCallHistory().need_schema;
  auto need = BuildRequest(call, OpenAi());
  ASSERT_TRUE(need.ok());
  ExpectPublished(*need);
  Json nb = Body(*need);
  EXPECT_EQ(nb["tool_choice"], Json("auto"));
  EXPECT_EQ(nb["tools"].size(), 1u);
  EXPECT_NE(nb.find("text"), nullptr);

  // Without a schema: JSON mode.
  auto plain = testing::PlainJsonCall();
  plain.model = "gpt-5.4";
  auto p = BuildRequest(plain, OpenAi());
  ASSERT_TRUE(p.ok());
  ExpectPublished(*p);
  EXPECT_EQ(Body(*p)["text"], *ParseJson(R"({"format":{"type":"json_object"}})"));
}

// A model that does not reason, sent to the Responses API by the provider's config: no
// reasoning fields, and the sampling parameters it takes.
TEST(OpenAiResponsesTest, ANonReasoningModelGetsNoReasoningFields) {
  ProviderCall call = testing::BasicCall();
  call.model = "gpt-4o";
  call.seed = 7;
  auto r = BuildRequest(call, OpenAi(OpenAiApi::kResponses));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectPublished(*r);
  Json b = Body(*r);
  EXPECT_EQ(b.find("include"), nullptr);
  EXPECT_EQ(b.find("reasoning"), nullptr);
  EXPECT_EQ(b.find("seed"), nullptr) << "the Responses API has no seed";
  ASSERT_NE(b.find("temperature"), nullptr);
  EXPECT_EQ(b["temperature"].as_double(), 0.0);
  // A level the family does not take is refused before anything is sent, as on chat.
  call.thinking.effort = "high";
  auto refused = BuildRequest(call, OpenAi(OpenAiApi::kResponses));
  EXPECT_EQ(refused.status().code(), Code::kInvalidArgument);
}

// A re-ask after a reasoning model's rejected answer: its output items go back as they came
// (the reasoning item with its id, summary and encrypted_content; the message and function_call
// items with their ids), before the tool's error.
TEST(OpenAiResponsesTest, ReasoningItemsGoBackWithTheAnswerTheyLedTo) {
  ProviderCall call = FinalToolOn("gpt-5.4", "medium");
  Turn& assistant = call.turns[1];
  assistant.thoughts.push_back({"Checking the ages.", "gAAAAB-enc", false, "rs_1"});
  assistant.thoughts.push_back({"no encrypted content", "", false, "rs_2"});
  assistant.text = "Submitting.";
  assistant.text_signature = "msg_1";
  assistant.tool_calls[0].signature = "fc_1";
  auto r = BuildRequest(call, OpenAi());
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ExpectPublished(*r);
  Json body = Body(*r);
  Json::Array& input = body["input"].as_array();
  ASSERT_EQ(input.size(), 5u) << r->body;
  EXPECT_EQ(input[1], *ParseJson(R"({"type":"reasoning","id":"rs_1",
      "summary":[{"type":"summary_text","text":"Checking the ages."}],
      "encrypted_content":"gAAAAB-enc"})"));
  // rs_2 came without encrypted_content: with nothing stored it cannot be sent back.
  EXPECT_EQ(input[2], *ParseJson(R"({"type":"message","role":"assistant","id":"msg_1",
      "status":"completed","content":[{"type":"output_text","text":"Submitting.",
      "annotations":[],"logprobs":[]}]})"));
  EXPECT_EQ(input[3]["type"], Json("function_call"));
  EXPECT_EQ(input[3]["id"], Json("fc_1"));
  EXPECT_EQ(input[3]["call_id"], Json("call_1"));
  EXPECT_EQ(input[4]["type"], Json("function_call_output"));

  // A reply cut off while the model reasoned: its reasoning had no following item and stays out.
  ProviderCall cut = testing::ReaskAfterEmptyReply();
  cut.model = "gpt-5.4";
  cut.turns[1].thoughts.push_back({"", "gAAAAB-enc", false, "rs_3"});
  auto c = BuildRequest(cut, OpenAi());
  ASSERT_TRUE(c.ok());
  ExpectPublished(*c);
  EXPECT_EQ(c->body.find("rs_3"), std::string::npos) << c->body;
}

// What a reply says, read into the reply a re-ask sends back (the round trip of the test above).
TEST(OpenAiResponsesTest, ReplyItemsBecomeThoughtsCallsAndText) {
  auto reply = ParseReply(ProviderKind::kOpenAi, testing::Response(200, R"({
    "id":"resp_1","object":"response","status":"completed","model":"gpt-5.4-2026-03-05",
    "output":[
      {"id":"rs_9","type":"reasoning","summary":[{"type":"summary_text","text":"a"},
        {"type":"summary_text","text":"b"}],"encrypted_content":"gAAAAB-x"},
      {"id":"fc_9","type":"function_call","status":"completed","call_id":"call_9",
        "name":"submit_person","arguments":"{\"name\":\"Ada\",\"age\":36}"}],
    "usage":{"input_tokens":100,"input_tokens_details":{"cached_tokens":64},
      "output_tokens":50,"output_tokens_details":{"reasoning_tokens":30},"total_tokens":150}})"));
  ASSERT_TRUE(reply.ok()) << reply.status().ToString();
  EXPECT_EQ(reply->finish, FinishKind::kToolUse);
  EXPECT_EQ(reply->model, "gpt-5.4-2026-03-05");
  ASSERT_EQ(reply->thoughts.size(), 1u);
  EXPECT_EQ(reply->thoughts[0].id, "rs_9");
  EXPECT_EQ(reply->thoughts[0].text, "a\nb");
  EXPECT_EQ(reply->thoughts[0].signature, "gAAAAB-x");
  ASSERT_EQ(reply->tool_calls.size(), 1u);
  EXPECT_EQ(reply->tool_calls[0].id, "call_9");
  EXPECT_EQ(reply->tool_calls[0].signature, "fc_9");
  EXPECT_EQ(reply->tool_calls[0].arguments, R"({"name":"Ada","age":36})");
  EXPECT_EQ(reply->usage.input_tokens, 100);
  EXPECT_EQ(reply->usage.cached_input_tokens, 64);
  EXPECT_EQ(reply->usage.output_tokens, 50) << "reasoning is inside output_tokens";
  EXPECT_EQ(reply->usage.reasoning_tokens, 30);
  EXPECT_FALSE(reply->usage.reasoning_unreported);
}

// status incomplete: max_output_tokens is a cut answer (often reasoning used the whole cap),
// content_filter a blocked one; a refusal part is a refusal; status failed is its error.
TEST(OpenAiResponsesTest, IncompleteRefusedAndFailedResponses) {
  auto cut = ParseReply(ProviderKind::kOpenAi, testing::Response(200, R"({
    "object":"response","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},
    "output":[{"id":"rs_1","type":"reasoning","summary":[]}],
    "usage":{"input_tokens":10,"output_tokens":256,
      "output_tokens_details":{"reasoning_tokens":256}}})"));
  ASSERT_TRUE(cut.ok()) << cut.status().ToString();
  EXPECT_EQ(cut->finish, FinishKind::kLength);
  EXPECT_EQ(cut->content, "");
  EXPECT_EQ(cut->usage.reasoning_tokens, 256);
  EXPECT_FALSE(FinishStatus(*cut).ok());

  auto filtered = ParseReply(ProviderKind::kOpenAi, testing::Response(200, R"({
    "object":"response","status":"incomplete","incomplete_details":{"reason":"content_filter"},
    "output":[]})"));
  ASSERT_TRUE(filtered.ok());
  EXPECT_EQ(filtered->finish, FinishKind::kSafety);

  auto refused = ParseReply(ProviderKind::kOpenAi, testing::Response(200, R"({
    "object":"response","status":"completed","output":[{"id":"msg_1","type":"message",
    "role":"assistant","status":"completed",
    "content":[{"type":"refusal","refusal":"I can't help with that."}]}]})"));
  ASSERT_TRUE(refused.ok());
  EXPECT_EQ(refused->finish, FinishKind::kRefusal);
  EXPECT_EQ(refused->refusal, "I can't help with that.");

  auto failed = ParseReply(ProviderKind::kOpenAi, testing::Response(200, R"({
    "object":"response","status":"failed","output":[],
    "error":{"code":"server_error","message":"The model failed to generate a response."}})"));
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), Code::kUnavailable);
  EXPECT_NE(failed.status().message().find("The model failed to generate a response."),
            std::string::npos);

  auto limited = ParseReply(ProviderKind::kOpenAi, testing::Response(200, R"({
    "object":"response","status":"failed","output":[],
    "error":{"code":"rate_limit_exceeded","message":"Rate limit reached."}})"));
  EXPECT_EQ(limited.status().code(), Code::kResourceExhausted);

  // An error status is read as on chat completions: the same error body.
  auto quota = ParseReply(ProviderKind::kOpenAi, testing::Response(429, R"({"error":{
    "message":"You exceeded your current quota","type":"insufficient_quota","param":null,
    "code":"insufficient_quota"}})"));
  EXPECT_FALSE(quota.ok());
}

TEST(OpenAiResponsesTest, BatchLinesAndTheBatchGoToTheModelsEndpoint) {
  auto live = BuildRequest(FinalToolOn("gpt-5.4", "high"), OpenAi());
  ASSERT_TRUE(live.ok());
  auto line = ParseJson(openai_batch::InputLine({"l1-r1", &*live}));
  ASSERT_TRUE(line.ok());
  EXPECT_EQ((*line)["url"], Json("/v1/responses"));
  EXPECT_EQ((*line)["method"], Json("POST"));
  EXPECT_EQ((*line)["body"], Body(*live));
  EXPECT_EQ(openai_batch::EndpointFor(OpenAi(), "gpt-5.4"), "/v1/responses");
  EXPECT_EQ(openai_batch::EndpointFor(OpenAi(), "gpt-4o-mini"), "/v1/chat/completions");
  EXPECT_EQ(openai_batch::EndpointFor(OpenAi(OpenAiApi::kChat), "gpt-5.4"), "/v1/chat/completions");
  auto create = openai_batch::CreateBatch(OpenAi(), "file-1", {},
                                          openai_batch::EndpointFor(OpenAi(), "gpt-5.4"));
  EXPECT_EQ(Body(create)["endpoint"], Json("/v1/responses"));
  // A chat completions line stays as it was.
  ProviderCall old = testing::BasicCall();
  old.model = "gpt-4o-mini";
  auto chat = BuildRequest(old, OpenAi());
  ASSERT_TRUE(chat.ok());
  auto chat_line = ParseJson(openai_batch::InputLine({"l2", &*chat}));
  ASSERT_TRUE(chat_line.ok());
  EXPECT_EQ((*chat_line)["url"], Json("/v1/chat/completions"));
}

TEST(OpenAiResponsesTest, TheApiIsAColumnOfTheModelTable) {
  EXPECT_EQ(ParseOpenAiApi("responses").value(), OpenAiApi::kResponses);
  EXPECT_EQ(ParseOpenAiApi("chat").value(), OpenAiApi::kChat);
  EXPECT_EQ(ParseOpenAiApi("completions").status().message(),
            "must be \"responses\" or \"chat\", not 'completions'");
  auto table = ModelTable::Builtin();
  EXPECT_EQ(table->Find(ProviderKind::kOpenAi, "gpt-5.4").api, OpenAiApi::kResponses);
  EXPECT_EQ(table->Find(ProviderKind::kOpenAi, "gpt-5.1").api, OpenAiApi::kChat);
  EXPECT_EQ(FamilyToJson(table->Find(ProviderKind::kOpenAi, "gpt-5.4"))["api"], Json("responses"));
  FamilyOverride o{ProviderKind::kOpenAi, "gpt-4.1", *ParseJson(R"({"api":"responses"})")};
  auto with = ModelTable::WithOverrides({o});
  ASSERT_TRUE(with.ok()) << with.status().ToString();
  EXPECT_EQ((*with)->Find(ProviderKind::kOpenAi, "gpt-4.1-mini").api, OpenAiApi::kResponses);
  FamilyOverride bad{ProviderKind::kAnthropic, "claude-x", *ParseJson(R"({"api":"responses"})")};
  auto refused = ModelTable::WithOverrides({bad});
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.status().message().find("api: \"responses\" is OpenAI's own API"),
            std::string::npos)
      << refused.status().message();
}

}  // namespace
}  // namespace structure::providers
