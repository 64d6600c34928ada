#include "providers/anthropic/anthropic_batch.h"

#include <gtest/gtest.h>

#include "providers/anthropic/anthropic_messages.h"
#include "providers/http_status.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

using testing::BasicCall;
using testing::Reply;

Endpoint MakeEndpoint() { return testing::TestEndpoint(ProviderKind::kAnthropic, "sk-ant"); }

TEST(AnthropicBatchTest, CreateHoldsEachLiveBodyAsParams) {
  auto a = anthropic_messages::BuildRequest(BasicCall(), MakeEndpoint());
  ProviderCall other = BasicCall();
  other.turns[0].text = "Grace Hopper, 85.";
  auto b = anthropic_messages::BuildRequest(other, MakeEndpoint());
  ASSERT_TRUE(a.ok() && b.ok());
  auto r = anthropic_batch::CreateBatch(MakeEndpoint(), {{"l1-r1", &*a}, {"l2-r1", &*b}});
  EXPECT_EQ(r.url, "http://127.0.0.1:9/v1/messages/batches");
  EXPECT_EQ(r.body, "{\"requests\":[{\"custom_id\":\"l1-r1\",\"params\":" + a->body +
                        "},{\"custom_id\":\"l2-r1\",\"params\":" + b->body + "}]}");
  bool key = false;
  for (const auto& [k, v] : r.headers) key = key || (k == "x-api-key" && v == "sk-ant");
  EXPECT_TRUE(key);
  EXPECT_GE(anthropic_batch::ItemBytes({"l1-r1", &*a}), a->body.size());
}

TEST(AnthropicBatchTest, ParsesProcessingStatusAndCounts) {
  auto b = anthropic_batch::ParseBatch(Reply(
      200,
      R"({"id":"msgbatch_1","type":"message_batch","processing_status":"in_progress","request_counts":{"processing":5,"succeeded":3,"errored":1,"canceled":0,"expired":1},"results_url":null})"));
  ASSERT_TRUE(b.ok());
  EXPECT_EQ(b->state, BatchState::kRunning);
  EXPECT_EQ(b->total, 10);
  EXPECT_EQ(b->succeeded, 3);
  EXPECT_EQ(b->failed, 2);
  auto ended = anthropic_batch::ParseBatch(Reply(
      200,
      R"({"id":"msgbatch_1","processing_status":"ended","results_url":"http://127.0.0.1:9/v1/messages/batches/msgbatch_1/results"})"));
  ASSERT_TRUE(ended.ok());
  EXPECT_EQ(ended->state, BatchState::kEnded);
  EXPECT_EQ(anthropic_batch::Results(MakeEndpoint(), *ended).url, ended->results_url);
}

TEST(AnthropicBatchTest, NeverSendsTheKeyToAnotherHostsResultsUrl) {
  BatchInfo info;
  info.id = "msgbatch_9";
  info.results_url = "http://127.0.0.1:99/v1/messages/batches/msgbatch_9/results";
  EXPECT_EQ(anthropic_batch::Results(MakeEndpoint(), info).url,
            "http://127.0.0.1:9/v1/messages/batches/msgbatch_9/results");
}

TEST(AnthropicBatchTest, ParsesEveryResultType) {
  std::string message =
      R"({"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"{\"a\":1}"}],"stop_reason":"end_turn","usage":{"input_tokens":20,"output_tokens":4}})";
  std::string jsonl =
      R"({"custom_id":"l1-r1","result":{"type":"succeeded","message":)" + message + "}}\n" +
      R"({"custom_id":"l2-r1","result":{"type":"errored","error":{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: too large"}}}})"
      "\n" +
      R"({"custom_id":"l3-r1","result":{"type":"errored","error":{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}}})"
      "\n" +
      R"({"custom_id":"l4-r1","result":{"type":"canceled"}})"
      "\n" +
      R"({"custom_id":"l5-r1","result":{"type":"expired"}})"
      "\n";
  ItemResults out;
  ASSERT_TRUE(anthropic_batch::ParseResults(jsonl, out).ok());
  ASSERT_TRUE(out["l1-r1"].reply.ok());
  EXPECT_EQ(out["l1-r1"].reply->content, "{\"a\":1}");
  EXPECT_EQ(out["l1-r1"].reply->usage.output_tokens, 4);
  EXPECT_EQ(out["l2-r1"].reply.status().code(), Code::kInvalidArgument);
  EXPECT_NE(out["l2-r1"].reply.status().message().find("max_tokens: too large"), std::string::npos);
  EXPECT_FALSE(out["l2-r1"].transient);
  EXPECT_TRUE(out["l3-r1"].transient);
  EXPECT_EQ(out["l4-r1"].code, ErrorCode::kBatchCancelled);
  EXPECT_FALSE(out["l4-r1"].transient);
  EXPECT_EQ(out["l5-r1"].code, ErrorCode::kBatchExpired);
  EXPECT_TRUE(out["l5-r1"].transient);
  EXPECT_EQ(
      anthropic_batch::ParseResults("{\"custom_id\":\"x\",\"result\":{\"type\":\"weird\"}}", out)
          .code(),
      Code::kInvalidArgument);
}

// A batch where some requests fail: each gets its own outcome, the others their answers, and a
// request with no result line is not lost (UnansweredItem, as ParseStored fills it in).
TEST(AnthropicBatchTest, AMixedBatchGivesEveryRequestItsOwnOutcome) {
  std::string ok =
      R"({"id":"msg_1","type":"message","role":"assistant","model":"m","content":[{"type":"text","text":"{\"a\":1}"}],"stop_reason":"end_turn","usage":{"input_tokens":20,"output_tokens":4}})";
  std::string jsonl =
      R"({"custom_id":"l1-r1","result":{"type":"succeeded","message":)" + ok + "}}\n" +
      // A provider error per request: permanent (invalid request) and transient (api_error).
      R"({"custom_id":"l2-r1","result":{"type":"errored","error":{"type":"error","error":{"type":"invalid_request_error","message":"messages: text content blocks must be non-empty"}}}})"
      "\n" +
      R"({"custom_id":"l3-r1","result":{"type":"errored","error":{"type":"error","error":{"type":"api_error","message":"Internal server error"}}}})"
      "\n" +
      // A succeeded result whose message is not a message: the live call's malformed reply.
      R"({"custom_id":"l4-r1","result":{"type":"succeeded","message":{"id":"msg_x","type":"message"}}})"
      "\n" +
      R"({"custom_id":"l5-r1","result":{"type":"expired"}})"
      "\n" +
      R"({"custom_id":"l6-r1","result":{"type":"canceled"}})"
      "\n" +
      R"({"custom_id":"l7-r1","result":{"type":"succeeded","message":)" + ok + "}}\n";
  ItemResults out;
  ASSERT_TRUE(anthropic_batch::ParseResults(jsonl, out).ok());
  ASSERT_EQ(out.size(), 7u);
  for (const char* id : {"l1-r1", "l7-r1"}) {
    ASSERT_TRUE(out[id].reply.ok()) << id;
    EXPECT_EQ(out[id].reply->content, "{\"a\":1}");
  }
  EXPECT_EQ(out["l2-r1"].reply.status().code(), Code::kInvalidArgument);
  EXPECT_NE(out["l2-r1"].reply.status().message().find("must be non-empty"), std::string::npos);
  EXPECT_FALSE(out["l2-r1"].transient);
  EXPECT_TRUE(out["l3-r1"].transient);
  EXPECT_EQ(out["l3-r1"].code, std::nullopt);  // the provider's own error, not a batch-level one
  EXPECT_FALSE(out["l4-r1"].reply.ok());
  EXPECT_NE(out["l4-r1"].reply.status().message().find("no content array"), std::string::npos);
  EXPECT_TRUE(out["l4-r1"].transient);  // as the live path retries a malformed reply
  EXPECT_EQ(out["l5-r1"].code, ErrorCode::kBatchExpired);
  EXPECT_TRUE(out["l5-r1"].transient);
  EXPECT_EQ(out["l6-r1"].code, ErrorCode::kBatchCancelled);
  EXPECT_FALSE(out["l6-r1"].transient);
  // An ended batch with a request the results do not list: reported missing, sent again.
  BatchInfo ended;
  ended.id = "msgbatch_1";
  ended.state = BatchState::kEnded;
  ItemResult missing = UnansweredItem(ended, "anthropic");
  EXPECT_EQ(missing.code, ErrorCode::kBatchMissing);
  EXPECT_TRUE(missing.transient);
}

TEST(AnthropicBatchTest, MatchesListedBatchesByTimeAndCount) {
  auto list = Reply(200, R"({"data":[
    {"id":"msgbatch_new","created_at":"2026-11-30T10:00:05Z","request_counts":{"processing":3,"succeeded":0,"errored":0,"canceled":0,"expired":0}},
    {"id":"msgbatch_other","created_at":"2026-11-30T10:00:06Z","request_counts":{"processing":2,"succeeded":0,"errored":0,"canceled":0,"expired":0}},
    {"id":"msgbatch_old","created_at":"2026-11-29T10:00:00Z","request_counts":{"processing":3,"succeeded":0,"errored":0,"canceled":0,"expired":0}}]})");
  auto since = ParseHttpDate("2026-11-30T10:00:04Z");
  ASSERT_TRUE(since);
  auto ids = anthropic_batch::MatchInList(list, *since * 1000, 3);
  ASSERT_EQ(ids.size(), 1u);
  EXPECT_EQ(ids[0], "msgbatch_new");
}

}  // namespace
}  // namespace structure::providers
