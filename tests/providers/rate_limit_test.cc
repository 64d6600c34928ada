#include "providers/admission/rate_limit.h"

#include <gtest/gtest.h>

namespace structure::providers {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

const TimePoint kT0 = TimePoint() + seconds(1000);

TEST(TokenBucketTest, AllowsOneSecondBurstThenRefillsAtRate) {
  TokenBucket b(600, kT0);  // 10 per second, capacity 10
  for (int i = 0; i < 10; ++i) {
    ASSERT_EQ(b.ReadyAt(1, kT0), kT0) << i;
    b.Take(1, kT0);
  }
  TimePoint ready = b.ReadyAt(1, kT0);
  EXPECT_GT(ready, kT0 + milliseconds(99));
  EXPECT_LT(ready, kT0 + milliseconds(101));
  EXPECT_EQ(b.ReadyAt(1, ready), ready);
}

TEST(TokenBucketTest, OversizedCostWaitsForFullBucketAndLeavesDebt) {
  TokenBucket b(60, kT0);  // 1 per second, capacity 1
  b.Take(1, kT0);
  TimePoint ready = b.ReadyAt(5, kT0);
  EXPECT_GT(ready, kT0 + milliseconds(999));
  b.Take(5, ready);
  EXPECT_LT(b.Level(ready), -3.9);
  EXPECT_GT(b.ReadyAt(1, ready), ready + seconds(4));
}

TEST(TokenBucketTest, CorrectionGivesBackOverestimate) {
  TokenBucket b(60'000, kT0);  // 1000/s
  b.Take(900, kT0);
  b.Adjust(800, kT0);  // actual was 100
  EXPECT_NEAR(b.Level(kT0), 900, 1e-6);
  b.Adjust(-2000, kT0);  // actual far above the estimate: debt
  EXPECT_LT(b.Level(kT0), 0);
}

TEST(TokenBucketTest, UnlimitedNeverWaits) {
  TokenBucket b;
  b.Take(1e9, kT0);
  EXPECT_EQ(b.ReadyAt(1e9, kT0), kT0);
}

TEST(LimiterTest, BlocksOnConcurrencyUntilRelease) {
  Limits l;
  l.max_concurrency = 2;
  Limiter lim(l, kT0);
  lim.Acquire(10, kT0);
  lim.Acquire(10, kT0);
  auto d = lim.Check(10, kT0);
  EXPECT_FALSE(d.go);
  EXPECT_FALSE(d.ready_at.has_value());  // only a completion helps
  lim.Release(10, std::nullopt, kT0);
  EXPECT_TRUE(lim.Check(10, kT0).go);
}

TEST(LimiterTest, BulkLeavesTheInteractiveReserveFree) {
  Limits l;
  l.max_concurrency = 3;
  l.interactive_reserve = 1;
  Limiter lim(l, kT0);
  lim.Acquire(1, kT0);
  lim.Acquire(1, kT0);
  EXPECT_FALSE(lim.Check(1, kT0, /*bulk=*/true).go);
  EXPECT_TRUE(lim.Check(1, kT0, /*bulk=*/false).go);
  l.max_concurrency = 1;  // a single slot is never reserved
  Limiter one(l, kT0);
  EXPECT_TRUE(one.Check(1, kT0, /*bulk=*/true).go);
}

TEST(LimiterTest, PauseBlocksUntilItEnds) {
  Limiter lim(Limits{}, kT0);
  lim.OnRateLimited(kT0 + seconds(2));
  auto d = lim.Check(1, kT0 + seconds(1));
  EXPECT_FALSE(d.go);
  EXPECT_EQ(d.ready_at, kT0 + seconds(2));
  EXPECT_TRUE(lim.Check(1, kT0 + seconds(2)).go);
}

TEST(LimiterTest, AdaptiveCapHalvesOn429AndGrowsBack) {
  Limits l;
  l.max_concurrency = 64;
  Limiter lim(l, kT0);
  for (int i = 0; i < 40; ++i) lim.Acquire(1, kT0);
  lim.OnRateLimited(kT0);
  EXPECT_EQ(lim.concurrency_cap(), 20);
  for (int i = 0; i < 40; ++i) lim.OnSuccess();
  EXPECT_GE(lim.concurrency_cap(), 21);
  EXPECT_LE(lim.concurrency_cap(), 23);
  l.adaptive = false;
  Limiter fixed(l, kT0);
  fixed.OnRateLimited(kT0);
  EXPECT_EQ(fixed.concurrency_cap(), 64);
}

TEST(LimiterTest, TokensPerMinuteGatesAndRejectsImpossibleRequests) {
  Limits l;
  l.tokens_per_minute = 60'000;  // 1000/s, one-second burst
  Limiter lim(l, kT0);
  EXPECT_EQ(lim.CheckFeasible(70'000).code(), Code::kInvalidArgument);
  EXPECT_TRUE(lim.CheckFeasible(2'000).ok());
  lim.Acquire(900, kT0);
  auto d = lim.Check(500, kT0);
  EXPECT_FALSE(d.go);
  ASSERT_TRUE(d.ready_at.has_value());
  EXPECT_NEAR(std::chrono::duration<double>(*d.ready_at - kT0).count(), 0.4, 0.001);
  lim.Release(900, 100, kT0);  // usage said 100: 800 come back
  EXPECT_TRUE(lim.Check(500, kT0).go);
}

TEST(BackoffTest, GrowsExponentiallyWithJitterAndCap) {
  BackoffPolicy p;
  p.initial = milliseconds(100);
  p.max = seconds(1);
  EXPECT_EQ(BackoffDelay(p, 1, 0.0), milliseconds(50));
  EXPECT_EQ(BackoffDelay(p, 1, 1.0), milliseconds(100));
  EXPECT_EQ(BackoffDelay(p, 3, 1.0), milliseconds(400));
  EXPECT_EQ(BackoffDelay(p, 10, 1.0), seconds(1));
  EXPECT_EQ(BackoffDelay(p, 10, 0.5), milliseconds(750));
}

}  // namespace
}  // namespace structure::providers
