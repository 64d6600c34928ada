// The provider pool against a call's deadline (PoolRequest::timeout): a Retry-After longer than
// the time left ends the call at once, retries without a usable hint stop at the deadline, and
// a bulk call's waits for its turn under the rate limits are not charged to it.
#include <gtest/gtest.h>

#include "actors/provider_pool.h"
#include "tests/actors/pool_test_util.h"

namespace structure::actors {
namespace {

using std::chrono::milliseconds;
using PoolDeadlineTest = testing::PoolFixture;

constexpr const char* kRateLimited = R"({"error":{"message":"slow down"}})";

TEST_F(PoolDeadlineTest, RetryAfterLongerThanTheTimeLeftEndsTheCallAtOnce) {
  Spawn(Config());
  PoolRequest r = Request(Lane::kInteractive);
  r.timeout = milliseconds(5000);
  Send(r);
  Complete(StartedId(0), 429, kRateLimited, {{"retry-after", "100000"}});
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].status.code(), Code::kDeadlineExceeded);
  EXPECT_NE(replies[0].status.message().find("(Retry-After), longer than the 5.0 s left"),
            std::string::npos)
      << replies[0].status.message();
  EXPECT_EQ(replies[0].attempts, 1);
}

TEST_F(PoolDeadlineTest, RetriesWithoutAUsableHintStopAtTheDeadline) {
  for (const char* hint : {"", "-5", "soon"}) {
    SCOPED_TRACE(hint);
    Spawn(Config());
    PoolRequest r = Request(Lane::kInteractive);
    r.timeout = milliseconds(2000);
    Send(r);
    size_t answered = 0;
    std::vector<PoolReply> replies;
    // Every attempt gets a 429; the clock moves a second at a time, far less than the 30
    // rate-limit retries the pool would otherwise make.
    for (int step = 0; step < 10 && replies.empty(); ++step) {
      while (answered < io_->started.size()) {
        providers::HttpHeaders headers;
        if (*hint) headers.emplace_back("retry-after", hint);
        Complete(StartedId(answered++), 429, kRateLimited, headers);
      }
      replies = Replies();
      if (replies.empty()) Advance(milliseconds(1000));
    }
    ASSERT_EQ(replies.size(), 1u);
    EXPECT_EQ(replies[0].status.code(), Code::kDeadlineExceeded);
    // Ended by the deadline, whether while waiting for a retry or for its turn: the message says
    // which.
    EXPECT_NE(replies[0].status.message().find("the call's time"), std::string::npos)
        << replies[0].status.message();
    EXPECT_GT(replies[0].rate_wait_us, 0);
    (*self_)->send_exit(pool_, caf::exit_reason::kill);
    sched_->run();
    io_->started.clear();
  }
}

TEST_F(PoolDeadlineTest, ABulkCallWaitingForItsTurnKeepsItsTime) {
  Spawn(Config(1));
  Send(Request());  // takes the only slot
  PoolRequest r = Request(Lane::kBulk);
  r.timeout = milliseconds(500);
  Send(r);
  Advance(milliseconds(2000));  // four times its timeout in the queue
  EXPECT_TRUE(Replies().empty()) << "a bulk call expired while it waited for its turn";
  Complete(StartedId(0), 200);
  ASSERT_EQ(io_->started.size(), 2u);
  // Its own time starts now: the attempt may take up to the whole timeout.
  EXPECT_GE(io_->started[1].second.timeout_ms, 400);
  Complete(StartedId(1), 200);
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 2u);
  EXPECT_TRUE(replies[1].status.ok()) << replies[1].status.ToString();
  EXPECT_GE(replies[1].rate_wait_us, 2'000'000);
}

TEST_F(PoolDeadlineTest, AnInteractiveCallWaitingInTheQueueRunsOutOfTime) {
  Spawn(Config(1));
  Send(Request(Lane::kInteractive));
  PoolRequest r = Request(Lane::kInteractive);
  r.timeout = milliseconds(500);
  Send(r);
  Advance(milliseconds(501));
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].status.code(), Code::kDeadlineExceeded);
  EXPECT_NE(replies[0].status.message().find("while it waited for its turn"), std::string::npos)
      << replies[0].status.message();
}

TEST_F(PoolDeadlineTest, ABulkCallWaitsOutARetryAfterLongerThanItsTime) {
  Spawn(Config());
  PoolRequest r = Request(Lane::kBulk);
  r.timeout = milliseconds(1000);
  Send(r);
  Complete(StartedId(0), 429, kRateLimited, {{"retry-after", "3"}});
  EXPECT_TRUE(Replies().empty()) << "a rate-limit wait ended a bulk call";
  Advance(milliseconds(3001));
  ASSERT_EQ(io_->started.size(), 2u);
  Complete(StartedId(1), 200);
  auto replies = Replies();
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_TRUE(replies[0].status.ok()) << replies[0].status.ToString();
}

}  // namespace
}  // namespace structure::actors
