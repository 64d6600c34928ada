#include "providers/gemini/gemini_batch.h"

#include <gtest/gtest.h>

#include "providers/gemini/gemini_generate.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

using testing::BasicCall;
using testing::Reply;

Endpoint MakeEndpoint() { return testing::TestEndpoint(ProviderKind::kGemini, "g-key"); }

TEST(GeminiBatchTest, CreateInlinesEachLiveBodyWithItsKey) {
  auto live = gemini_generate::BuildRequest(BasicCall(), MakeEndpoint());
  ASSERT_TRUE(live.ok());
  auto r =
      gemini_batch::CreateBatch(MakeEndpoint(), "models/test-model", "job-1", {{"l1-r1", &*live}});
  EXPECT_EQ(r.url, "http://127.0.0.1:9/v1beta/models/test-model:batchGenerateContent");
  EXPECT_EQ(r.body,
            "{\"batch\":{\"displayName\":\"job-1\",\"inputConfig\":{\"requests\":{\"requests\":[{"
            "\"request\":" +
                live->body + ",\"metadata\":{\"key\":\"l1-r1\"}}]}}}}");
  EXPECT_EQ(gemini_batch::GetBatch(MakeEndpoint(), "batches/abc").url,
            "http://127.0.0.1:9/v1beta/batches/abc");
  EXPECT_EQ(gemini_batch::CancelBatch(MakeEndpoint(), "batches/abc").url,
            "http://127.0.0.1:9/v1beta/batches/abc:cancel");
}

TEST(GeminiBatchTest, ParsesOperationStatesAndStats) {
  auto running = gemini_batch::ParseBatch(Reply(
      200,
      R"({"name":"batches/abc","metadata":{"state":"BATCH_STATE_RUNNING","displayName":"job-1","batchStats":{"requestCount":"4","successfulRequestCount":"1","pendingRequestCount":"3"}},"done":false})"));
  ASSERT_TRUE(running.ok());
  EXPECT_EQ(running->state, BatchState::kRunning);
  EXPECT_EQ(running->total, 4);
  EXPECT_EQ(running->succeeded, 1);
  for (auto [word, state] : {std::pair{"BATCH_STATE_SUCCEEDED", BatchState::kEnded},
                             std::pair{"JOB_STATE_SUCCEEDED", BatchState::kEnded},
                             std::pair{"BATCH_STATE_FAILED", BatchState::kFailed},
                             std::pair{"BATCH_STATE_CANCELLED", BatchState::kCancelled},
                             std::pair{"BATCH_STATE_EXPIRED", BatchState::kExpired},
                             std::pair{"BATCH_STATE_PENDING", BatchState::kRunning}}) {
    auto b = gemini_batch::ParseBatch(
        Reply(200, std::string(R"({"name":"batches/x","metadata":{"state":")") + word + "\"}}"));
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->state, state) << word;
  }
  auto failed = gemini_batch::ParseBatch(
      Reply(200, R"({"name":"batches/x","done":true,"error":{"code":3,"message":"bad request"}})"));
  ASSERT_TRUE(failed.ok());
  EXPECT_EQ(failed->state, BatchState::kFailed);
  EXPECT_EQ(failed->error, "bad request");
}

TEST(GeminiBatchTest, ParsesInlinedResponsesByKeyOrPosition) {
  std::string ok =
      R"({"candidates":[{"content":{"parts":[{"text":"{\"a\":1}"}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":2}})";
  std::string op =
      R"({"name":"batches/x","done":true,"metadata":{"state":"BATCH_STATE_SUCCEEDED"},"response":{"@type":"type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput","inlinedResponses":{"inlinedResponses":[)"
      R"({"response":)" +
      ok +
      R"(,"metadata":{"key":"l2-r1"}},)"
      R"({"error":{"code":13,"message":"Internal error"}},)"
      R"({"error":{"code":3,"message":"Invalid schema"},"metadata":{"key":"l3-r1"}}]}}})";
  ItemResults out;
  ASSERT_TRUE(gemini_batch::ParseResults(op, {"l1-r1", "l9-r1", "l3-r1"}, out).ok());
  ASSERT_EQ(out.size(), 3u);
  ASSERT_TRUE(out["l2-r1"].reply.ok());
  EXPECT_EQ(out["l2-r1"].reply->usage.input_tokens, 9);
  EXPECT_TRUE(out["l9-r1"].transient);  // matched by position, INTERNAL
  EXPECT_FALSE(out["l3-r1"].transient);
  EXPECT_EQ(out["l3-r1"].reply.status().code(), Code::kInvalidArgument);
}

// A batch where some requests fail: provider errors per request (permanent and transient), a
// request cancelled or past its deadline, a response that is not a GenerateContentResponse, and
// an entry with neither: each its own outcome, the others their answers, none lost.
TEST(GeminiBatchTest, AMixedBatchGivesEveryRequestItsOwnOutcome) {
  std::string ok =
      R"({"candidates":[{"content":{"parts":[{"text":"{\"a\":1}"}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":2}})";
  std::string op =
      R"({"name":"batches/x","done":true,"metadata":{"state":"BATCH_STATE_SUCCEEDED"},"response":{"inlinedResponses":{"inlinedResponses":[)"
      R"({"response":)" +
      ok +
      R"(,"metadata":{"key":"l1-r1"}},)"
      R"({"error":{"code":400,"message":"Simulated: rejected","status":"INVALID_ARGUMENT"},"metadata":{"key":"l2-r1"}},)"
      R"({"error":{"code":13,"message":"Internal error encountered."},"metadata":{"key":"l3-r1"}},)"
      R"({"response":{"modelVersion":"m"},"metadata":{"key":"l4-r1"}},)"
      R"({"error":{"code":4,"message":"Deadline expired"},"metadata":{"key":"l5-r1"}},)"
      R"({"error":{"code":1,"message":"The request was cancelled."},"metadata":{"key":"l6-r1"}},)"
      R"({"metadata":{"key":"l7-r1"}},)"
      R"({"response":)" +
      ok + R"(,"metadata":{"key":"l8-r1"}}]}}})";
  std::vector<std::string> ids = {"l1-r1", "l2-r1", "l3-r1", "l4-r1",
                                  "l5-r1", "l6-r1", "l7-r1", "l8-r1"};
  ItemResults out;
  ASSERT_TRUE(gemini_batch::ParseResults(op, ids, out).ok());
  for (const char* id : {"l1-r1", "l8-r1"}) {
    ASSERT_TRUE(out[id].reply.ok()) << id;
    EXPECT_EQ(out[id].reply->content, "{\"a\":1}");
  }
  EXPECT_EQ(out["l2-r1"].reply.status().code(), Code::kInvalidArgument);
  EXPECT_NE(out["l2-r1"].reply.status().message().find("Simulated: rejected"), std::string::npos);
  EXPECT_FALSE(out["l2-r1"].transient);
  EXPECT_TRUE(out["l3-r1"].transient);
  EXPECT_FALSE(out["l4-r1"].reply.ok());
  EXPECT_NE(out["l4-r1"].reply.status().message().find("no candidates"), std::string::npos);
  EXPECT_TRUE(out["l4-r1"].transient);
  EXPECT_TRUE(out["l5-r1"].transient);
  EXPECT_EQ(out["l6-r1"].code, ErrorCode::kBatchCancelled);
  EXPECT_FALSE(out["l6-r1"].transient);
  EXPECT_EQ(out.count("l7-r1"), 0u);  // no result: ParseStored reports it via UnansweredItem
  BatchInfo ended;
  ended.id = "batches/x";
  ended.state = BatchState::kEnded;
  EXPECT_EQ(UnansweredItem(ended, "gemini").code, ErrorCode::kBatchMissing);
  // An expired operation leaves the unanswered requests to be sent again.
  auto expired = gemini_batch::ParseBatch(
      Reply(200, R"({"name":"batches/y","done":true,"metadata":{"state":"BATCH_STATE_EXPIRED"}})"));
  ASSERT_TRUE(expired.ok());
  ItemResult late = UnansweredItem(*expired, "gemini");
  EXPECT_EQ(late.code, ErrorCode::kBatchExpired);
  EXPECT_TRUE(late.transient);
}

TEST(GeminiBatchTest, FindsOperationByDisplayName) {
  auto list = Reply(
      200,
      R"({"operations":[{"name":"batches/a","metadata":{"displayName":"j-1"}},{"name":"batches/b","metadata":{"displayName":"j-2"}}]})");
  EXPECT_EQ(gemini_batch::FindInList(list, "j-2"), "batches/b");
  EXPECT_EQ(gemini_batch::FindInList(list, "j-3"), std::nullopt);
}

}  // namespace
}  // namespace structure::providers
