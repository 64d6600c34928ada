#include "base/json_pointer.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace structure {
namespace {

using Tokens = std::vector<std::string>;

TEST(JsonPointerTest, EscapesTildeBeforeSlash) {
  EXPECT_EQ(EscapePointerToken("a/b~c"), "a~1b~0c");
  EXPECT_EQ(EscapePointerToken("~1"), "~01");  // not "~1": the tilde is escaped first
  EXPECT_EQ(EscapePointerToken(""), "");
  std::string p;
  AppendPointerToken(p, "x/y");
  AppendPointerToken(p, "");
  EXPECT_EQ(p, "/x~1y/");
}

TEST(JsonPointerTest, UnescapeReversesEscape) {
  for (std::string t : {"", "plain", "a/b", "~", "~0", "~1", "/~/", "caf\xc3\xa9"}) {
    EXPECT_EQ(UnescapePointerToken(EscapePointerToken(t)), t) << t;
  }
  // "~01" is "~" then "1", never "/": the escapes are read once, left to right.
  EXPECT_EQ(UnescapePointerToken("~01"), "~1");
}

// The inputs on which the two decoders this replaces disagreed: one kept or dropped a bad
// escape, the other refused it. RFC 6901 section 3 allows only "~0" and "~1".
TEST(JsonPointerTest, BadEscapesAreNoToken) {
  EXPECT_EQ(UnescapePointerToken("~"), std::nullopt);
  EXPECT_EQ(UnescapePointerToken("a~"), std::nullopt);
  EXPECT_EQ(UnescapePointerToken("~2"), std::nullopt);
  EXPECT_EQ(UnescapePointerToken("~a"), std::nullopt);
  EXPECT_EQ(UnescapePointerToken("~~0"), std::nullopt);
  EXPECT_EQ(SplitPointer("/a~2b"), std::nullopt);
  EXPECT_EQ(SplitPointer("/ok/bad~"), std::nullopt);
}

TEST(JsonPointerTest, SplitsIntoUnescapedTokens) {
  EXPECT_EQ(SplitPointer(""), Tokens{});
  EXPECT_EQ(SplitPointer("/"), Tokens{""});
  EXPECT_EQ(SplitPointer("//"), (Tokens{"", ""}));
  EXPECT_EQ(SplitPointer("/a~1b/0"), (Tokens{"a/b", "0"}));
  EXPECT_EQ(SplitPointer("/m~0n"), Tokens{"m~n"});
  EXPECT_EQ(SplitPointer("/ "), Tokens{" "});
}

TEST(JsonPointerTest, TextNotStartingWithSlashIsNoPointer) {
  EXPECT_EQ(SplitPointer("a"), std::nullopt);
  EXPECT_EQ(SplitPointer("#/a"), std::nullopt);
  EXPECT_EQ(SplitPointer("~0"), std::nullopt);
}

}  // namespace
}  // namespace structure
