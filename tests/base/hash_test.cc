#include "base/hash.h"

#include <gtest/gtest.h>

namespace structure {
namespace {

// The FNV-1a 64-bit reference vectors (the algorithm's authors' test suite; public domain).
TEST(HashTest, Fnv1a64MatchesTheReferenceVectors) {
  EXPECT_EQ(Fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(Fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(Fnv1a64("foobar"), 0x85944171f73967e8ULL);
}

TEST(HashTest, Fnv1a64ContinuesAnEarlierHash) {
  EXPECT_EQ(Fnv1a64("bar", Fnv1a64("foo")), Fnv1a64("foobar"));
  EXPECT_EQ(Fnv1a64("", Fnv1a64("foo")), Fnv1a64("foo"));
}

TEST(HashTest, Fnv1a64IsAConstantExpression) {
  static_assert(Fnv1a64("a") == 0xaf63dc4c8601ec8cULL);
  static_assert(Fnv1a64Word(0, kFnv1a64Basis) == kFnv1a64Basis * kFnv1a64Prime);
}

TEST(HashTest, Fnv1a64TakesBytesAboveSeventyFAsUnsigned) {
  // A signed char would fold in 0xffffffffffffff80 instead of 0x80.
  EXPECT_EQ(Fnv1a64("\x80"), Fnv1a64Word(0x80, kFnv1a64Basis));
}

}  // namespace
}  // namespace structure
