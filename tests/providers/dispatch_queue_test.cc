#include "providers/admission/dispatch_queue.h"

#include <gtest/gtest.h>

namespace structure::providers {
namespace {

using std::chrono::seconds;
const TimePoint kT0 = TimePoint() + seconds(100);

TEST(DispatchQueueTest, InteractiveOvertakesBulkBacklog) {
  DispatchQueue q;
  for (uint64_t i = 1; i <= 5000; ++i) q.Push(i, QueueLane::kBulk);
  q.Push(9999, QueueLane::kInteractive);
  EXPECT_EQ(q.Peek(kT0), 9999u);
  q.Take(9999);
  EXPECT_EQ(q.Peek(kT0), 1u);
  EXPECT_EQ(q.waiting(), 5000u);
}

TEST(DispatchQueueTest, RateLimitedRequestGoesBackToTheFront) {
  DispatchQueue q;
  q.Push(1, QueueLane::kBulk);
  q.Push(2, QueueLane::kBulk);
  q.Take(*q.Peek(kT0));
  q.PushFront(1);
  EXPECT_EQ(q.Peek(kT0), 1u);
}

TEST(DispatchQueueTest, ParkedRetryWaitsForItsTime) {
  DispatchQueue q;
  q.Push(1, QueueLane::kBulk);
  q.Push(2, QueueLane::kBulk);
  q.Take(1);
  q.Delay(1, kT0 + seconds(2));
  EXPECT_EQ(q.NextEvent(), kT0 + seconds(2));
  EXPECT_EQ(q.Peek(kT0), 2u);
  q.Take(2);
  EXPECT_FALSE(q.Peek(kT0 + seconds(1)).has_value());
  EXPECT_EQ(q.Peek(kT0 + seconds(2)), 1u);
}

TEST(DispatchQueueTest, ReportsExpiredDeadlinesInAnyState) {
  DispatchQueue q;
  q.Push(1, QueueLane::kBulk, kT0 + seconds(1));
  q.Push(2, QueueLane::kBulk, kT0 + seconds(5));
  q.Push(3, QueueLane::kInteractive);
  q.Take(*q.Peek(kT0));  // 3
  EXPECT_EQ(q.NextEvent(), kT0 + seconds(1));
  EXPECT_EQ(q.Expired(kT0 + seconds(2)), std::vector<uint64_t>{1});
  q.Forget(1);
  EXPECT_EQ(q.Peek(kT0 + seconds(2)), 2u);
  EXPECT_EQ(q.waiting(), 1u);
  q.Forget(3);
  q.Forget(2);
  EXPECT_EQ(q.tracked(), 0u);
  EXPECT_FALSE(q.Peek(kT0).has_value());
}

}  // namespace
}  // namespace structure::providers
