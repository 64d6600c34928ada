// The pool's side of the shared limits, without a store: one acquire at a time, grants split
// into "go" and "back", the store's wait, refunds, and the fallback (Limiter::SetRateShare).
#include "providers/admission/shared_admission.h"

#include <gtest/gtest.h>

namespace structure::providers {
namespace {

using namespace std::chrono_literals;
using Asked = std::vector<std::pair<uint64_t, int64_t>>;

TEST(SharedAdmissionTest, OneAcquireAtATimeSplitsTheGrantInOrder) {
  SharedAdmission s;
  TimePoint t0{};
  EXPECT_TRUE(s.active());
  EXPECT_TRUE(s.CanAsk(t0));
  s.AddRefund(30);
  s.AddRefund(-10);
  EXPECT_EQ(s.StartAsk(Asked{{1, 10}, {2, 20}, {3, 30}}), 20);  // the refund goes along once
  EXPECT_EQ(s.pending_refund(), 0);
  EXPECT_TRUE(s.asking());
  EXPECT_FALSE(s.CanAsk(t0));
  auto a = s.OnGrant(SharedGrant{2, 100ms}, t0);
  EXPECT_EQ(a.go, (Asked{{1, 10}, {2, 20}}));
  EXPECT_EQ(a.back, (Asked{{3, 30}}));
  EXPECT_FALSE(s.asking());
  EXPECT_FALSE(s.CanAsk(t0 + 99ms));  // the store said: not before 100 ms
  EXPECT_TRUE(s.CanAsk(t0 + 100ms));
  ASSERT_TRUE(s.retry_at());
  EXPECT_EQ(*s.retry_at(), t0 + 100ms);
}

TEST(SharedAdmissionTest, AFullGrantLeavesNoWaitAndAHugeWaitIsBounded) {
  SharedAdmission s;
  TimePoint t0{};
  s.StartAsk(Asked{{1, 5}});
  auto a = s.OnGrant(SharedGrant{1, 0ms}, t0);
  EXPECT_EQ(a.go.size(), 1u);
  EXPECT_TRUE(a.back.empty());
  EXPECT_TRUE(s.CanAsk(t0));
  s.StartAsk(Asked{{2, 5}});
  s.OnGrant(SharedGrant{0, std::chrono::hours(5)}, t0);
  EXPECT_TRUE(s.CanAsk(t0 + 60s));
}

TEST(SharedAdmissionTest, StoreDownReturnsTheAskedAndDropsRefundsUntilItIsBack) {
  SharedAdmission s;
  TimePoint t0{};
  s.StartAsk(Asked{{7, 1}, {8, 2}});
  s.AddRefund(50);
  auto a = s.OnStoreDown();
  EXPECT_EQ(a.back, (Asked{{7, 1}, {8, 2}}));
  EXPECT_FALSE(s.active());
  EXPECT_FALSE(s.asking());
  EXPECT_FALSE(s.CanAsk(t0));
  EXPECT_EQ(s.pending_refund(), 0);
  s.OnStoreUp();
  EXPECT_TRUE(s.active());
  EXPECT_TRUE(s.CanAsk(t0));
}

TEST(LimiterShareTest, FallbackShareScalesTheRatesAndZeroLeavesThemToTheStore) {
  Limits l;
  l.requests_per_minute = 600;  // 10 a second, a burst of 10
  l.tokens_per_minute = 60000;
  l.max_concurrency = 1000;
  TimePoint t0{};
  Limiter lim(l, t0);
  lim.SetRateShare(0, t0);
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(lim.Check(1, t0).go) << i;  // only concurrency is checked here
    lim.Acquire(1, t0);
  }
  lim.SetRateShare(0.5, t0);  // 5 a second, a burst of 5
  int admitted = 0;
  while (lim.Check(1, t0).go) {
    lim.Acquire(1, t0);
    ++admitted;
  }
  EXPECT_EQ(admitted, 5);
  auto d = lim.Check(1, t0);
  ASSERT_TRUE(d.ready_at);
  EXPECT_NEAR(std::chrono::duration<double>(*d.ready_at - t0).count(), 0.2, 1e-3);
  // Feasibility stays against the whole configured limit, so no call fails in the fallback.
  EXPECT_TRUE(lim.CheckFeasible(50000).ok());
  EXPECT_EQ(lim.in_flight(), 105);  // the slots survive the switch
}

}  // namespace
}  // namespace structure::providers
