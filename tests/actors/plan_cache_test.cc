#include "actors/plan_cache.h"

#include <gtest/gtest.h>

namespace structure::actors {
namespace {

PlanResult MakePlan(int* made) {
  ++*made;
  auto plan = std::make_shared<pipeline::LoopPlan>();
  plan->manual = "plan " + std::to_string(*made);
  return std::shared_ptr<const pipeline::LoopPlan>(plan);
}

TEST(PlanCacheTest, BuildsOncePerKeyAndSharesThePlan) {
  PlanCache cache;
  int made = 0;
  PlanResult a = cache.Get("k", [&] { return MakePlan(&made); });
  PlanResult b = cache.Get("k", [&] { return MakePlan(&made); });
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(made, 1);
  EXPECT_EQ(*a, *b);  // the same plan object
  PlanResult c = cache.Get("other", [&] { return MakePlan(&made); });
  EXPECT_EQ(made, 2);
  EXPECT_NE(*c, *a);
}

TEST(PlanCacheTest, CachesFailuresToo) {
  PlanCache cache;
  int made = 0;
  auto fail = [&]() -> PlanResult {
    ++made;
    return InvalidArgument("schema: bad");
  };
  EXPECT_EQ(cache.Get("bad", fail).status().message(), "schema: bad");
  EXPECT_EQ(cache.Get("bad", fail).status().message(), "schema: bad");
  EXPECT_EQ(made, 1);
}

TEST(PlanCacheTest, DropsTheLeastRecentlyUsedPastItsCapacity) {
  PlanCache cache(2);
  int made = 0;
  auto make = [&] { return MakePlan(&made); };
  EXPECT_TRUE(cache.Get("a", make).ok());
  EXPECT_TRUE(cache.Get("b", make).ok());
  EXPECT_TRUE(cache.Get("a", make).ok());  // a is now the most recent
  EXPECT_TRUE(cache.Get("c", make).ok());  // drops b
  EXPECT_EQ(cache.size(), 2u);
  EXPECT_EQ(made, 3);
  EXPECT_TRUE(cache.Get("a", make).ok());
  EXPECT_EQ(made, 3);
  EXPECT_TRUE(cache.Get("b", make).ok());  // built again
  EXPECT_EQ(made, 4);
}

}  // namespace
}  // namespace structure::actors
