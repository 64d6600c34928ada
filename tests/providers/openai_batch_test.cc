#include "providers/openai/openai_batch.h"

#include <gtest/gtest.h>

#include "providers/openai/openai_chat.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

using testing::BasicCall;
using testing::Reply;

Endpoint MakeEndpoint() { return testing::TestEndpoint(ProviderKind::kOpenAi, "sk-test"); }

TEST(OpenAiBatchTest, InputLineHoldsTheLiveBodyUnchanged) {
  auto live = openai_chat::BuildRequest(BasicCall(), MakeEndpoint());
  ASSERT_TRUE(live.ok());
  std::string line = openai_batch::InputLine({"l7-r1", &*live});
  ASSERT_EQ(line.back(), '\n');
  auto parsed = ParseJson(line);
  ASSERT_TRUE(parsed.ok()) << parsed.status().ToString();
  EXPECT_EQ(parsed->find("custom_id")->as_string(), "l7-r1");
  EXPECT_EQ(parsed->find("method")->as_string(), "POST");
  EXPECT_EQ(parsed->find("url")->as_string(), "/v1/chat/completions");
  // Byte for byte: the body text is spliced in, not re-serialized.
  EXPECT_NE(line.find("\"body\":" + live->body + "}"), std::string::npos);
}

// A provider-batch line for an o-series model carries no parallel_tool_calls in final-tool mode
// (the batch answered each such line with a 400 "Unsupported parameter" before).
TEST(OpenAiBatchTest, OSeriesLinesCarryNoParallelToolCalls) {
  ProviderCall call = testing::ToolCallHistory();
  call.model = "o3-mini";
  auto live = openai_chat::BuildRequest(call, MakeEndpoint());
  ASSERT_TRUE(live.ok()) << live.status().ToString();
  std::string line = openai_batch::InputLine({"l1-r1", &*live});
  auto parsed = ParseJson(line);
  ASSERT_TRUE(parsed.ok());
  const Json* body = parsed->find("body");
  ASSERT_NE(body, nullptr);
  EXPECT_NE(body->find("tools"), nullptr);
  EXPECT_EQ(body->find("parallel_tool_calls"), nullptr) << line;
  call.model = "gpt-4o";
  auto gpt4o = openai_chat::BuildRequest(call, MakeEndpoint());
  EXPECT_NE(gpt4o->body.find("\"parallel_tool_calls\":false"), std::string::npos);
}

TEST(OpenAiBatchTest, UploadIsMultipartWithPurposeBatch) {
  auto r = openai_batch::UploadFile(MakeEndpoint(), "{\"a\":1}\n", "round-1.jsonl");
  EXPECT_EQ(r.url, "http://127.0.0.1:9/v1/files");
  std::string type;
  for (const auto& [k, v] : r.headers) {
    if (k == "Content-Type") type = v;
  }
  ASSERT_EQ(type.rfind("multipart/form-data; boundary=", 0), 0u);
  std::string boundary = type.substr(type.find('=') + 1);
  EXPECT_NE(r.body.find("name=\"purpose\"\r\n\r\nbatch\r\n"), std::string::npos);
  EXPECT_NE(r.body.find("filename=\"round-1.jsonl\""), std::string::npos);
  EXPECT_NE(r.body.find("\r\n\r\n{\"a\":1}\n\r\n--" + boundary + "--\r\n"), std::string::npos);
}

TEST(OpenAiBatchTest, CreateNamesEndpointWindowAndMetadata) {
  auto r = openai_batch::CreateBatch(MakeEndpoint(), "file-1", {{"structure_job", "j1"}});
  EXPECT_EQ(r.url, "http://127.0.0.1:9/v1/batches");
  EXPECT_EQ(
      r.body,
      R"({"input_file_id":"file-1","endpoint":"/v1/chat/completions","completion_window":"24h","metadata":{"structure_job":"j1"}})");
  EXPECT_EQ(openai_batch::RetrieveBatch(MakeEndpoint(), "batch_1").method, "GET");
  EXPECT_EQ(openai_batch::FileContent(MakeEndpoint(), "file-9").url,
            "http://127.0.0.1:9/v1/files/file-9/content");
}

TEST(OpenAiBatchTest, ParsesBatchStatesCountsAndErrors) {
  auto running = openai_batch::ParseBatch(Reply(
      200,
      R"({"id":"batch_1","status":"in_progress","request_counts":{"total":10,"completed":4,"failed":1}})"));
  ASSERT_TRUE(running.ok());
  EXPECT_EQ(running->state, BatchState::kRunning);
  EXPECT_EQ(running->total, 10);
  EXPECT_EQ(running->succeeded, 4);
  EXPECT_EQ(running->failed, 1);
  auto done = openai_batch::ParseBatch(Reply(
      200,
      R"({"id":"batch_1","status":"completed","output_file_id":"file-o","error_file_id":"file-e"})"));
  ASSERT_TRUE(done.ok());
  EXPECT_EQ(done->state, BatchState::kEnded);
  EXPECT_EQ(done->output_file_id, "file-o");
  EXPECT_EQ(done->error_file_id, "file-e");
  auto failed = openai_batch::ParseBatch(Reply(
      200,
      R"({"id":"batch_1","status":"failed","errors":{"object":"list","data":[{"code":"invalid_json_line","message":"bad","line":3}]}})"));
  ASSERT_TRUE(failed.ok());
  EXPECT_EQ(failed->state, BatchState::kFailed);
  EXPECT_EQ(failed->error, "invalid_json_line: bad (line 3)");
  for (auto [word, state] :
       {std::pair{"expired", BatchState::kExpired}, std::pair{"cancelled", BatchState::kCancelled},
        std::pair{"cancelling", BatchState::kRunning},
        std::pair{"validating", BatchState::kRunning}}) {
    auto b =
        openai_batch::ParseBatch(Reply(200, std::string(R"({"id":"b","status":")") + word + "\"}"));
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->state, state) << word;
  }
  auto limited = openai_batch::ParseBatch(
      Reply(429, R"({"error":{"message":"slow down","type":"requests"}})"));
  EXPECT_EQ(limited.status().code(), Code::kResourceExhausted);
}

TEST(OpenAiBatchTest, ParsesOutputAndErrorLinesAsTheLiveCallWould) {
  std::string chat =
      R"({"id":"c","object":"chat.completion","model":"m","choices":[{"index":0,"message":{"role":"assistant","content":"{\"a\":1}"},"finish_reason":"stop"}],"usage":{"prompt_tokens":12,"completion_tokens":3}})";
  std::string jsonl =
      R"({"id":"r1","custom_id":"l1-r1","response":{"status_code":200,"request_id":"q","body":)" +
      chat + "},\"error\":null}\n\n" +
      R"({"id":"r2","custom_id":"l2-r1","response":{"status_code":400,"body":{"error":{"message":"Invalid schema","type":"invalid_request_error"}}},"error":null})"
      "\n" +
      R"({"id":"r3","custom_id":"l3-r1","response":{"status_code":500,"body":{"error":{"message":"oops","type":"server_error"}}},"error":null})"
      "\n" +
      R"({"id":"r4","custom_id":"l4-r1","response":null,"error":{"code":"batch_expired","message":"This request could not be executed before the completion window expired."}})"
      "\n";
  ItemResults out;
  ASSERT_TRUE(openai_batch::ParseResults(jsonl, out).ok());
  ASSERT_EQ(out.size(), 4u);
  ASSERT_TRUE(out["l1-r1"].reply.ok());
  EXPECT_EQ(out["l1-r1"].reply->content, "{\"a\":1}");
  EXPECT_EQ(out["l1-r1"].reply->usage.input_tokens, 12);
  EXPECT_EQ(out["l2-r1"].reply.status().code(), Code::kInvalidArgument);
  EXPECT_NE(out["l2-r1"].reply.status().message().find("Invalid schema"), std::string::npos);
  EXPECT_FALSE(out["l2-r1"].transient);
  EXPECT_TRUE(out["l3-r1"].transient);
  EXPECT_TRUE(out["l4-r1"].transient);
  EXPECT_EQ(out["l4-r1"].code, ErrorCode::kBatchExpired);
}

TEST(OpenAiBatchTest, RejectsResultLinesWithoutCustomId) {
  ItemResults out;
  Status s = openai_batch::ParseResults(
      "{\"custom_id\":\"a\",\"error\":{\"code\":\"x\"}}\n{\"id\":\"x\"}\n", out);
  EXPECT_EQ(s.code(), Code::kInvalidArgument);
  EXPECT_NE(s.message().find("line 2"), std::string::npos);
  EXPECT_EQ(openai_batch::ParseResults("not json\n", out).code(), Code::kInvalidArgument);
}

TEST(OpenAiBatchTest, FindsBatchByMetadataInList) {
  auto list = Reply(
      200,
      R"({"data":[{"id":"batch_a","metadata":{"structure_submit":"j-1"}},{"id":"batch_b","metadata":{"structure_submit":"j-2"}}]})");
  EXPECT_EQ(openai_batch::FindInList(list, "structure_submit", "j-2"), "batch_b");
  EXPECT_EQ(openai_batch::FindInList(list, "structure_submit", "j-3"), std::nullopt);
}

TEST(BatchWireTest, UnansweredItemsFollowTheBatchState) {
  BatchInfo info;
  info.id = "b1";
  info.state = BatchState::kExpired;
  EXPECT_TRUE(UnansweredItem(info, "openai").transient);
  EXPECT_EQ(UnansweredItem(info, "openai").code, ErrorCode::kBatchExpired);
  info.state = BatchState::kCancelled;
  EXPECT_FALSE(UnansweredItem(info, "openai").transient);
  EXPECT_EQ(UnansweredItem(info, "openai").code, ErrorCode::kBatchCancelled);
  info.state = BatchState::kFailed;
  info.error = "invalid_json_line: bad";
  ItemResult failed = UnansweredItem(info, "openai");
  EXPECT_FALSE(failed.transient);
  EXPECT_NE(failed.reply.status().message().find("invalid_json_line: bad"), std::string::npos);
}

}  // namespace
}  // namespace structure::providers
