#include "providers/gemini_batch.h"

#include <gtest/gtest.h>

#include "providers/gemini_generate.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

using testing::BasicCall;

Endpoint MakeEndpoint() {
  Endpoint e;
  e.kind = ProviderKind::kGemini;
  e.base_url = "http://127.0.0.1:9";
  e.api_key = "g-key";
  return e;
}

HttpResponse Reply(int status, std::string body) {
  HttpResponse r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

TEST(GeminiBatchTest, CreateInlinesEachLiveBodyWithItsKey) {
  auto live = gemini_generate::BuildRequest(BasicCall(), MakeEndpoint());
  ASSERT_TRUE(live.ok());
  auto r = gemini_batch::CreateBatch(MakeEndpoint(), "models/test-model", "job-1", {{"l1-r1", &*live}});
  EXPECT_EQ(r.url, "http://127.0.0.1:9/v1beta/models/test-model:batchGenerateContent");
  EXPECT_EQ(r.body, "{\"batch\":{\"displayName\":\"job-1\",\"inputConfig\":{\"requests\":{\"requests\":[{\"request\":" +
                        live->body + ",\"metadata\":{\"key\":\"l1-r1\"}}]}}}}");
  EXPECT_EQ(gemini_batch::GetBatch(MakeEndpoint(), "batches/abc").url, "http://127.0.0.1:9/v1beta/batches/abc");
  EXPECT_EQ(gemini_batch::CancelBatch(MakeEndpoint(), "batches/abc").url,
            "http://127.0.0.1:9/v1beta/batches/abc:cancel");
}

TEST(GeminiBatchTest, ParsesOperationStatesAndStats) {
  auto running = gemini_batch::ParseBatch(Reply(200, R"({"name":"batches/abc","metadata":{"state":"BATCH_STATE_RUNNING","displayName":"job-1","batchStats":{"requestCount":"4","successfulRequestCount":"1","pendingRequestCount":"3"}},"done":false})"));
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
    auto b = gemini_batch::ParseBatch(Reply(200, std::string(R"({"name":"batches/x","metadata":{"state":")") + word + "\"}}"));
    ASSERT_TRUE(b.ok());
    EXPECT_EQ(b->state, state) << word;
  }
  auto failed = gemini_batch::ParseBatch(Reply(200, R"({"name":"batches/x","done":true,"error":{"code":3,"message":"bad request"}})"));
  ASSERT_TRUE(failed.ok());
  EXPECT_EQ(failed->state, BatchState::kFailed);
  EXPECT_EQ(failed->error, "bad request");
}

TEST(GeminiBatchTest, ParsesInlinedResponsesByKeyOrPosition) {
  std::string ok = R"({"candidates":[{"content":{"parts":[{"text":"{\"a\":1}"}],"role":"model"},"finishReason":"STOP"}],"usageMetadata":{"promptTokenCount":9,"candidatesTokenCount":2}})";
  std::string op = R"({"name":"batches/x","done":true,"metadata":{"state":"BATCH_STATE_SUCCEEDED"},"response":{"@type":"type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput","inlinedResponses":{"inlinedResponses":[)"
                   R"({"response":)" + ok + R"(,"metadata":{"key":"l2-r1"}},)"
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

TEST(GeminiBatchTest, FindsOperationByDisplayName) {
  auto list = Reply(200, R"({"operations":[{"name":"batches/a","metadata":{"displayName":"j-1"}},{"name":"batches/b","metadata":{"displayName":"j-2"}}]})");
  EXPECT_EQ(gemini_batch::FindInList(list, "j-2"), "batches/b");
  EXPECT_EQ(gemini_batch::FindInList(list, "j-3"), std::nullopt);
}

}  // namespace
}  // namespace structure::providers
