#include "base/batch_window.h"

#include <gtest/gtest.h>

namespace structure {
namespace {

using std::chrono::microseconds;
using Clock = BatchWindow::Clock;

TEST(BatchWindowTest, ALoneCallerNeverWaits) {
  BatchWindow w(microseconds(1000));
  Clock::time_point t = Clock::now();
  // One request at a time: read (one unit, one open), answered shortly after (one unit, none
  // open), the next read right away. None of these turns is under load.
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(w.Decide(1, 1, t).count(), 0) << i;
    t += microseconds(50);
    EXPECT_EQ(w.Decide(1, 0, t).count(), 0) << i;
    t += microseconds(50);
  }
  // Even a turn with two units waits for nothing when at most one piece of work is open.
  EXPECT_EQ(w.Decide(2, 1, t).count(), 0);
}

TEST(BatchWindowTest, LoadOpensTheWindow) {
  BatchWindow w(microseconds(1000));
  Clock::time_point t = Clock::now();
  EXPECT_EQ(w.Decide(2, 5, t).count(), 1000);  // two units in one turn, five open
  t += microseconds(300);
  EXPECT_EQ(w.Decide(1, 5, t).count(), 1000);  // one unit, soon after a busy turn
  t += microseconds(5000);
  EXPECT_EQ(w.Decide(1, 5, t).count(), 0);  // one unit, long after: not under load
  EXPECT_EQ(w.Decide(0, 5, t).count(), 0);  // an empty turn never waits
}

TEST(BatchWindowTest, TheWaitIsAnEighthOfTheObservedLatencyAtMost) {
  BatchWindow w(microseconds(1000));
  EXPECT_EQ(w.Wait().count(), 1000);  // nothing observed yet: the window
  w.Observe(microseconds(800));
  EXPECT_EQ(w.Wait().count(), 100);  // 800 / 8
  for (int i = 0; i < 200; ++i) w.Observe(microseconds(40000));
  EXPECT_EQ(w.Wait().count(), 1000);  // 40 ms / 8 is over the window: the window
  EXPECT_EQ(w.Decide(3, 3, Clock::now()).count(), 1000);
}

TEST(BatchWindowTest, AZeroWindowNeverWaits) {
  BatchWindow w(microseconds(0));
  EXPECT_EQ(w.Decide(10, 10, Clock::now()).count(), 0);
}

}  // namespace
}  // namespace structure
