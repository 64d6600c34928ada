#include "base/hex.h"

#include <gtest/gtest.h>

namespace structure {
namespace {

TEST(HexTest, DigitValues) {
  EXPECT_EQ(HexDigitValue('0'), 0);
  EXPECT_EQ(HexDigitValue('9'), 9);
  EXPECT_EQ(HexDigitValue('a'), 10);
  EXPECT_EQ(HexDigitValue('F'), 15);
  for (char c : {'g', 'G', ' ', '+', '-', 'x', '\0', static_cast<char>(0xc3)}) {
    EXPECT_EQ(HexDigitValue(c), -1) << static_cast<int>(c);
  }
  EXPECT_EQ(HexDigitValue(U'\uff10'), -1);  // a fullwidth digit is no hex digit
}

TEST(HexTest, Hex64KeepsLeadingZeros) {
  EXPECT_EQ(Hex64(0), "0000000000000000");
  EXPECT_EQ(Hex64(0xff), "00000000000000ff");
  EXPECT_EQ(Hex64(0xcbf29ce484222325ULL), "cbf29ce484222325");
  EXPECT_EQ(Hex64(~0ULL), "ffffffffffffffff");
}

TEST(HexTest, PercentDecodesTwoHexDigitsOnly) {
  EXPECT_EQ(PercentDecode("/a%20b"), "/a b");
  EXPECT_EQ(PercentDecode("%25"), "%");
  EXPECT_EQ(PercentDecode("%7e0"), "~0");
  EXPECT_EQ(PercentDecode("%C3%A9"), "\xc3\xa9");
  // Not two hex digits: left as written (the JSON pointer resolver read "%+1", "% 1" and "%-1"
  // as bytes, through strtol).
  EXPECT_EQ(PercentDecode("%+1"), "%+1");
  EXPECT_EQ(PercentDecode("% 1"), "% 1");
  EXPECT_EQ(PercentDecode("%-1"), "%-1");
  EXPECT_EQ(PercentDecode("%4"), "%4");
  EXPECT_EQ(PercentDecode("%"), "%");
  EXPECT_EQ(PercentDecode("%%41"), "%A");
}

TEST(HexTest, PlusIsASpaceOnlyInFormEncoding) {
  EXPECT_EQ(PercentDecode("a+b%2B"), "a+b+");
  EXPECT_EQ(PercentDecode("a+b%2B", PlusIs::kSpace), "a b+");
}

}  // namespace
}  // namespace structure
