// The response object and the event stream of POST /v1/responses, as the SDKs read them.
#include "server/openai/responses_reply.h"

#include <gtest/gtest.h>

#include <vector>

namespace structure::server::openai {
namespace {

using pipeline::Outcome;
using pipeline::StructureResult;

ReplyContext Context() {
  ReplyContext c;
  c.id = "resp_abc";
  c.created = 1700000000;
  c.model = "default:fast";
  return c;
}

StructureResult Ok() {
  StructureResult r;
  r.status = Outcome::kOk;
  r.data = *ParseJson(R"({"id":"T-7"})");
  r.iterations = 2;
  r.schema_origin = "inline";
  r.usage.input_tokens = 120;
  r.usage.output_tokens = 30;
  r.usage.cached_input_tokens = 64;
  r.usage.reasoning_tokens = 8;
  return r;
}

// The event types and data of an event stream.
std::vector<std::pair<std::string, Json>> Events(const std::string& text) {
  std::vector<std::pair<std::string, Json>> out;
  size_t at = 0;
  while ((at = text.find("event: ", at)) != std::string::npos) {
    size_t nl = text.find('\n', at);
    std::string type = text.substr(at + 7, nl - at - 7);
    size_t end = text.find("\n\n", nl);
    std::string data = text.substr(nl + 7, end - nl - 7);  // after "\ndata: "
    out.emplace_back(type, *ParseJson(data));
    at = end;
  }
  return out;
}

TEST(ResponsesReplyTest, TheAnswerIsOneMessageOfOutputText) {
  Json j = *ParseJson(ResponseJson(Ok(), Context()));
  EXPECT_EQ(*j.find("object"), Json("response"));
  EXPECT_EQ(*j.find("id"), Json("resp_abc"));
  EXPECT_EQ(*j.find("status"), Json("completed"));
  const Json& item = j.find("output")->as_array().at(0);
  EXPECT_EQ(*item.find("type"), Json("message"));
  EXPECT_EQ(*item.find("id"), Json("msg_abc"));
  const Json& part = item.find("content")->as_array().at(0);
  EXPECT_EQ(*part.find("type"), Json("output_text"));
  EXPECT_EQ(*part.find("text"), Json(R"({"id":"T-7"})"));
  EXPECT_EQ(ToJson(*j.find("usage")),
            R"({"input_tokens":120,"input_tokens_details":{"cached_tokens":64},)"
            R"("output_tokens":30,"output_tokens_details":{"reasoning_tokens":8},)"
            R"("total_tokens":150})");
  EXPECT_EQ(*j.find("structure")->find("iterations"), Json(int64_t{2}));
}

TEST(ResponsesReplyTest, NeedMoreInputIsARefusalPart) {
  StructureResult r;
  r.status = Outcome::kNeedMoreInput;
  r.need = "the ticket number is not in the text";
  Json j = *ParseJson(ResponseJson(r, Context()));
  const Json& part = j.find("output")->as_array().at(0).find("content")->as_array().at(0);
  EXPECT_EQ(ToJson(part), R"({"type":"refusal","refusal":"the ticket number is not in the text"})");
}

TEST(ResponsesReplyTest, AForcedToolIsAFunctionCallItem) {
  ReplyContext c = Context();
  c.tool_name = "save";
  Json j = *ParseJson(ResponseJson(Ok(), c));
  EXPECT_EQ(ToJson(j.find("output")->as_array().at(0)),
            R"({"type":"function_call","id":"fc_abc","call_id":"call_abc","name":"save",)"
            R"("arguments":"{\"id\":\"T-7\"}","status":"completed"})");
}

// Replaying the events as responses.stream does (item added, part added, text deltas appended)
// rebuilds the text; response.completed carries the whole response.
TEST(ResponsesReplyTest, StreamEventsRebuildTheResponse) {
  auto events = Events(ResponseEvents(Ok(), Context()));
  std::vector<std::string> types;
  for (const auto& [type, data] : events) {
    types.push_back(type);
    EXPECT_EQ(*data.find("type"), Json(type));
  }
  EXPECT_EQ(types, (std::vector<std::string>{
                       "response.created", "response.in_progress", "response.output_item.added",
                       "response.content_part.added", "response.output_text.delta",
                       "response.output_text.done", "response.content_part.done",
                       "response.output_item.done", "response.completed"}));
  EXPECT_EQ(*events[3].second.find("part")->find("text"), Json(""));
  EXPECT_EQ(*events[4].second.find("delta"), Json(R"({"id":"T-7"})"));
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(*events[i].second.find("sequence_number"), Json(static_cast<int64_t>(i)));
  }
  EXPECT_TRUE(events[0].second.find("response")->find("output")->as_array().empty());
  EXPECT_EQ(ToJson(*events.back().second.find("response")), ResponseJson(Ok(), Context()));
}

TEST(ResponsesReplyTest, StreamedCallSendsItsArguments) {
  ReplyContext c = Context();
  c.tool_name = "save";
  auto events = Events(ResponseEvents(Ok(), c));
  ASSERT_EQ(events.size(), 7u);
  EXPECT_EQ(events[3].first, "response.function_call_arguments.delta");
  EXPECT_EQ(*events[3].second.find("delta"), Json(R"({"id":"T-7"})"));
  EXPECT_EQ(*events[2].second.find("item")->find("arguments"), Json(""));
}

}  // namespace
}  // namespace structure::server::openai
