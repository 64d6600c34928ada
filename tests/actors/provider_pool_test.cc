#include "actors/provider_pool.h"

#include <gtest/gtest.h>

#include "tests/actors/pool_test_util.h"

namespace structure::actors {
namespace {

using std::chrono::milliseconds;
using PoolTest = testing::PoolFixture;

TEST_F(PoolTest, RepliesOnceWithParsedReplyOnSuccess) {
  Spawn(Config());
  Send(Request());
  ASSERT_EQ(io_->started.size(), 1u);
  EXPECT_EQ(io_->started[0].second.url, "http://127.0.0.1:9/v1/chat/completions");
  Complete(StartedId(0), 200);
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_TRUE(replies[0].status.ok()) << replies[0].status.ToString();
  EXPECT_EQ(replies[0].reply.content, R"({"a":1})");
  EXPECT_EQ(replies[0].attempts, 1);
  Complete(StartedId(0), 200);  // a duplicate completion is ignored
  EXPECT_TRUE(Replies().empty());
}

TEST_F(PoolTest, RejectsInvalidCallWithoutSendingIt) {
  Spawn(Config());
  PoolRequest r = Request();
  r.call.model.clear();
  Send(r);
  EXPECT_TRUE(io_->started.empty());
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].status.code(), Code::kInvalidArgument);
}

TEST_F(PoolTest, Retries500AfterBackoffThenSucceeds) {
  Spawn(Config());
  Send(Request());
  Complete(StartedId(0), 500, R"({"error":{"message":"boom"}})");
  EXPECT_TRUE(Replies().empty());
  EXPECT_EQ(io_->started.size(), 1u);  // waiting for the backoff (50..100 ms)
  Advance(milliseconds(101));
  ASSERT_EQ(io_->started.size(), 2u);
  Complete(StartedId(1), 200);
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_TRUE(replies[0].status.ok());
  EXPECT_EQ(replies[0].attempts, 2);
}

TEST_F(PoolTest, RetriesConnectionResetAndGivesUpAfterMaxRetries) {
  PoolConfig c = Config();
  c.max_retries = 2;
  Spawn(c);
  Send(Request());
  for (size_t i = 0; i < 3; ++i) {
    ASSERT_EQ(io_->started.size(), i + 1);
    Fail(StartedId(i), providers::TransportError::kReset);
    Advance(milliseconds(1000));
  }
  EXPECT_EQ(io_->started.size(), 3u);
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].status.code(), Code::kUnavailable);
  EXPECT_EQ(replies[0].attempts, 3);
}

// A stalled or failed handshake sent nothing: the call goes again at once (no backoff), once;
// a second such failure waits for the backoff and counts against max_retries.
TEST_F(PoolTest, ResendsAtOnceOnceWhenNothingWasSent) {
  PoolConfig c = Config();
  c.max_retries = 0;
  Spawn(c);
  Send(Request());
  Fail(StartedId(0), providers::TransportError::kTimeout, /*nothing_sent=*/true);
  ASSERT_EQ(io_->started.size(), 2u);  // at once, without advancing the clock
  Fail(StartedId(1), providers::TransportError::kTimeout, /*nothing_sent=*/true);
  Advance(milliseconds(5000));
  EXPECT_EQ(io_->started.size(), 2u);
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].status.code(), Code::kDeadlineExceeded);
  EXPECT_EQ(replies[0].attempts, 2);
}

// A reset after the request went out may have reached the provider: no at-once resend, only
// the transient-retry budget (none here).
TEST_F(PoolTest, DoesNotResendAResetAfterSendingWithoutRetryBudget) {
  PoolConfig c = Config();
  c.max_retries = 0;
  Spawn(c);
  Send(Request());
  Fail(StartedId(0), providers::TransportError::kReset, /*nothing_sent=*/false);
  Advance(milliseconds(5000));
  EXPECT_EQ(io_->started.size(), 1u);
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].attempts, 1);
}

// A certificate that is not accepted is an answer, not a fault: never retried.
TEST_F(PoolTest, NeverRetriesACertificateNotAccepted) {
  Spawn(Config());
  Send(Request());
  Fail(StartedId(0), providers::TransportError::kTlsVerify, /*nothing_sent=*/true);
  Advance(milliseconds(5000));
  EXPECT_EQ(io_->started.size(), 1u);
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].status.code(), Code::kFailedPrecondition);
  EXPECT_EQ(replies[0].attempts, 1);
}

TEST_F(PoolTest, NeverRetries400Or401) {
  Spawn(Config());
  Send(Request());
  Send(Request());
  Complete(StartedId(0), 400, R"({"error":{"message":"Invalid schema"}})");
  Complete(StartedId(1), 401, R"({"error":{"message":"bad key"}})");
  Advance(milliseconds(5000));
  EXPECT_EQ(io_->started.size(), 2u);
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_EQ(replies[0].status.code(), Code::kInvalidArgument);
  EXPECT_NE(replies[0].status.message().find("Invalid schema"), std::string::npos);
  EXPECT_EQ(replies[1].status.code(), Code::kUnauthenticated);
}

TEST_F(PoolTest, PausesWholeEndpointOn429ForRetryAfter) {
  Spawn(Config());
  Send(Request());
  Complete(StartedId(0), 429, R"({"error":{"message":"slow down"}})", {{"retry-after", "2"}});
  Send(Request());  // arrives during the pause
  EXPECT_EQ(io_->started.size(), 1u);
  Advance(milliseconds(1900));
  EXPECT_EQ(io_->started.size(), 1u);
  Advance(milliseconds(100));
  ASSERT_EQ(io_->started.size(), 3u);
  EXPECT_EQ(StartedId(1), StartedId(0));  // the rate-limited request goes first
  Complete(StartedId(1), 200);
  Complete(StartedId(2), 200);
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_TRUE(replies[0].status.ok());
  EXPECT_EQ(replies[0].attempts, 2);
  EXPECT_EQ(Stats().rate_limited, 1);
}

TEST_F(PoolTest, Pauses429WithoutRetryAfterByBackoffAndFailsAfterLimit) {
  PoolConfig c = Config();
  c.max_rate_limit_retries = 1;
  Spawn(c);
  Send(Request());
  Complete(StartedId(0), 429, "{}");
  EXPECT_EQ(io_->started.size(), 1u);
  Advance(milliseconds(100));
  ASSERT_EQ(io_->started.size(), 2u);
  Complete(StartedId(1), 429, "{}");
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].status.code(), Code::kResourceExhausted);
}

TEST_F(PoolTest, InteractiveCallStartsAtOnceInTheReservedSlot) {
  Spawn(Config(4));
  for (int i = 0; i < 200; ++i) Send(Request(Lane::kBulk));
  ASSERT_EQ(io_->started.size(), 3u);  // one slot stays free for interactive work
  PoolRequest inter = Request(Lane::kInteractive);
  inter.call.model = "interactive";
  Send(inter);
  ASSERT_EQ(io_->started.size(), 4u);
  EXPECT_NE(io_->started[3].second.body.find("\"interactive\""), std::string::npos);
}

TEST_F(PoolTest, InteractiveCallTakesTheNextFreeSlotAheadOfBulkBacklog) {
  PoolConfig c = Config(2);
  c.limits.interactive_reserve = 0;
  Spawn(c);
  for (int i = 0; i < 200; ++i) Send(Request(Lane::kBulk));
  ASSERT_EQ(io_->started.size(), 2u);
  PoolRequest inter = Request(Lane::kInteractive);
  inter.call.model = "interactive";
  Send(inter);
  EXPECT_EQ(io_->started.size(), 2u);
  Complete(StartedId(0), 200);
  ASSERT_EQ(io_->started.size(), 3u);
  EXPECT_NE(io_->started[2].second.body.find("\"interactive\""), std::string::npos);
}

TEST_F(PoolTest, RequestsPerMinuteBucketSpacesDispatches) {
  PoolConfig c = Config();
  c.limits.requests_per_minute = 60;  // one per second, burst of one
  Spawn(c);
  for (int i = 0; i < 3; ++i) Send(Request());
  EXPECT_EQ(io_->started.size(), 1u);
  Advance(milliseconds(999));
  EXPECT_EQ(io_->started.size(), 1u);
  Advance(milliseconds(2));
  EXPECT_EQ(io_->started.size(), 2u);
  Advance(milliseconds(999));  // the second token was taken at 1.001 s
  EXPECT_EQ(io_->started.size(), 2u);
  Advance(milliseconds(2));
  EXPECT_EQ(io_->started.size(), 3u);
}

TEST_F(PoolTest, QueuedRequestFailsAtItsDeadline) {
  Spawn(Config(1));
  Send(Request());
  PoolRequest r = Request(Lane::kInteractive);  // a bulk one waits for its turn (deadline test)
  r.timeout = milliseconds(500);
  Send(r);
  EXPECT_EQ(io_->started.size(), 1u);
  Advance(milliseconds(501));
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].status.code(), Code::kDeadlineExceeded);
  EXPECT_EQ(replies[0].attempts, 0);
}

TEST_F(PoolTest, CancelAnswersAtOnceAndFreesTheSlot) {
  Spawn(Config(1));
  PoolRequest r = Request();
  r.cancel_key = 42;
  Send(r);
  Send(Request());
  ASSERT_EQ(io_->started.size(), 1u);
  (*self_)->send(pool_, cancel_atom_v, uint64_t{42});
  sched_->run();
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].status.code(), Code::kCancelled);
  EXPECT_EQ(io_->cancelled, std::vector<uint64_t>{StartedId(0)});
  ASSERT_EQ(io_->started.size(), 2u);  // the freed slot went to the next request
  Complete(StartedId(0), 200);         // late completion of the cancelled transfer: ignored
  EXPECT_TRUE(Replies().empty());
}

TEST_F(PoolTest, ShutdownAnswersEveryPendingRequestExactlyOnce) {
  Spawn(Config(2));
  for (int i = 0; i < 5; ++i) Send(Request());
  (*self_)->send_exit(pool_, caf::exit_reason::user_shutdown);
  sched_->run();
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 5u);
  for (const auto& r : replies) EXPECT_EQ(r.status.code(), Code::kCancelled);
  EXPECT_TRUE(io_->shut_down);
  pool_ = nullptr;
}

TEST_F(PoolTest, TokenBucketIsCorrectedFromReportedUsage) {
  PoolConfig c = Config();
  c.limits.tokens_per_minute = 60'000;  // 1000 per second
  Spawn(c);
  PoolRequest big = Request();
  big.call.max_tokens = 900;
  Send(big);
  Send(big);  // 2 x ~900 tokens do not fit a 1000-token second
  ASSERT_EQ(io_->started.size(), 1u);
  Complete(StartedId(0), 200);  // usage says 15 tokens: the rest comes back
  EXPECT_EQ(io_->started.size(), 2u);
}

}  // namespace
}  // namespace structure::actors
