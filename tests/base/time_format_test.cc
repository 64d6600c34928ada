#include "base/time_format.h"

#include <gtest/gtest.h>

namespace structure {
namespace {

constexpr int64_t k2026Nov29At20 = 1795982400;  // date -u -d 2026-11-29T20:00:00Z +%s

TEST(TimeFormatTest, FormatsUtcWithAndWithoutNanoseconds) {
  EXPECT_EQ(FormatRfc3339(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(FormatRfc3339(k2026Nov29At20), "2026-11-29T20:00:00Z");
  EXPECT_EQ(FormatRfc3339(k2026Nov29At20, 250), "2026-11-29T20:00:00.000000250Z");
  EXPECT_EQ(FormatRfc3339(k2026Nov29At20 - 1, 999999999), "2026-11-29T19:59:59.999999999Z");
}

TEST(TimeFormatTest, ParsesWhatItFormats) {
  for (int64_t t : {int64_t{0}, k2026Nov29At20, int64_t{951782400}}) {  // 951782400: 2000-02-29
    EXPECT_EQ(ParseRfc3339(FormatRfc3339(t)), t) << t;
    EXPECT_EQ(ParseRfc3339(FormatRfc3339(t, 5)), t) << t;
  }
}

TEST(TimeFormatTest, RefusesTextThatIsNoTime) {
  EXPECT_EQ(ParseRfc3339(""), std::nullopt);
  EXPECT_EQ(ParseRfc3339("tomorrow"), std::nullopt);
  EXPECT_EQ(ParseRfc3339("2026-11-29"), std::nullopt);
  EXPECT_EQ(ParseRfc3339("2026-13-01T00:00:00Z"), std::nullopt);
  EXPECT_EQ(ParseRfc3339("2026-11-00T00:00:00Z"), std::nullopt);
  EXPECT_EQ(ParseRfc3339("2026-11-29T24:00:00Z"), std::nullopt);
  EXPECT_EQ(ParseRfc3339("2026-11-29T-1:00:00Z"), std::nullopt);
  EXPECT_EQ(ParseRfc3339("2026-11-29T20:60:00Z"), std::nullopt);
}

TEST(TimeFormatTest, FieldsOutOfRangeHaveNoTime) {
  EXPECT_EQ(UnixSecondsOf(2026, 11, 29, 20, 0, 0), k2026Nov29At20);
  EXPECT_EQ(UnixSecondsOf(2026, 0, 1, 0, 0, 0), std::nullopt);
  EXPECT_EQ(UnixSecondsOf(2026, 1, 32, 0, 0, 0), std::nullopt);
  EXPECT_EQ(UnixSecondsOf(2026, 1, 1, 0, 0, 61), std::nullopt);
  EXPECT_EQ(UnixSecondsOf(2026, 1, 1, 0, -1, 0), std::nullopt);
}

TEST(TimeFormatTest, NowIsAfterTheTimeThisTestWasWritten) {
  EXPECT_GT(UnixNowMs(), int64_t{1700000000000});
}

}  // namespace
}  // namespace structure
