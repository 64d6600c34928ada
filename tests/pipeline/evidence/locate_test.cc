// Locating quotes in multi-byte text: exact and normalised matches, byte and code point offsets.
#include "pipeline/evidence/locate.h"

#include <gtest/gtest.h>

#include "pipeline/evidence/normalize.h"

namespace structure::pipeline::evidence {
namespace {

TEST(Locate, ExactMatchOnUmlautsGivesByteAndCodePointOffsets) {
  std::string prompt = "Kunde: Jürgen Müller, Straße 5";
  PromptIndex index(prompt);
  auto span = index.Locate("Müller");
  ASSERT_TRUE(span);
  EXPECT_EQ(span->kind, MatchKind::kExact);
  // "Kunde: Jürgen " is 14 code points and 15 bytes (ü is two bytes).
  EXPECT_EQ(span->byte_begin, 15u);
  EXPECT_EQ(span->byte_end, 15u + 7u);
  EXPECT_EQ(span->cp_begin, 14u);
  EXPECT_EQ(span->cp_end, 20u);
  EXPECT_EQ(prompt.substr(span->byte_begin, span->byte_end - span->byte_begin), "Müller");
}

TEST(Locate, NormalizedMatchFoldsCaseAndWhiteSpaceAndMapsBack) {
  std::string prompt = "Kunde: Jürgen   MÜLLER,\nStraße 5";
  PromptIndex index(prompt);
  auto span = index.Locate("jürgen müller");
  ASSERT_TRUE(span);
  EXPECT_EQ(span->kind, MatchKind::kNormalized);
  EXPECT_EQ(prompt.substr(span->byte_begin, span->byte_end - span->byte_begin), "Jürgen   MÜLLER");
  EXPECT_EQ(span->cp_begin, 7u);
  EXPECT_EQ(span->cp_end, 7u + 15u);
}

TEST(Locate, DecomposedUmlautMatchesComposedQuote) {
  std::string prompt = "Herr Mu\xCC\x88ller kommt";  // u + COMBINING DIAERESIS
  PromptIndex index(prompt);
  auto span = index.Locate("Müller");
  ASSERT_TRUE(span);
  EXPECT_EQ(span->kind, MatchKind::kNormalized);
  EXPECT_EQ(span->byte_begin, 5u);
  EXPECT_EQ(span->byte_end, 5u + 8u);
  EXPECT_EQ(span->cp_begin, 5u);
  EXPECT_EQ(span->cp_end, 5u + 7u);  // M u ◌̈ l l e r
}

TEST(Locate, CjkExactAndFullWidthDigitsNormalized) {
  std::string prompt = "注文番号：１２３４、東京都渋谷区";
  PromptIndex index(prompt);
  auto exact = index.Locate("東京都");
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->kind, MatchKind::kExact);
  EXPECT_EQ(exact->cp_begin, 10u);
  EXPECT_EQ(exact->cp_end, 13u);
  EXPECT_EQ(exact->byte_begin, 30u);  // every code point before it is three bytes
  auto folded = index.Locate("注文番号:1234");
  ASSERT_TRUE(folded);
  EXPECT_EQ(folded->kind, MatchKind::kNormalized);
  EXPECT_EQ(folded->byte_begin, 0u);
  EXPECT_EQ(folded->cp_end, 9u);
  EXPECT_EQ(folded->byte_end, 27u);
}

TEST(Locate, EmojiCountsAsOneCodePointAndFourBytes) {
  std::string prompt = "🎉🎉 Party am Freitag 🍕 mit Pizza";
  PromptIndex index(prompt);
  auto span = index.Locate("Freitag 🍕 mit");
  ASSERT_TRUE(span);
  EXPECT_EQ(span->kind, MatchKind::kExact);
  EXPECT_EQ(span->byte_begin, 8u + 10u);
  EXPECT_EQ(span->cp_begin, 2u + 10u);
  EXPECT_EQ(span->cp_end, 12u + 13u);
  EXPECT_EQ(span->byte_end, 18u + 16u);
  auto folded = index.Locate("FREITAG  🍕 MIT");
  ASSERT_TRUE(folded);
  EXPECT_EQ(folded->kind, MatchKind::kNormalized);
  EXPECT_EQ(folded->byte_begin, span->byte_begin);
  EXPECT_EQ(folded->byte_end, span->byte_end);
}

TEST(Locate, TypographicQuotesFoldToAscii) {
  std::string prompt =
      "Er sagte \xE2\x80\x9E"
      "Ja\xE2\x80\x9C und ging.";
  PromptIndex index(prompt);
  auto span = index.Locate("sagte \"ja\"");
  ASSERT_TRUE(span);
  EXPECT_EQ(span->kind, MatchKind::kNormalized);
  EXPECT_EQ(span->byte_begin, 3u);
}

// Quotes of 64 bytes or more take the Boyer-Moore path: the same answers as short ones,
// including on repetitive text where a naive search would compare at every place.
TEST(Locate, LongQuotesInRepetitiveTextAreFoundAtTheirFirstPlace) {
  std::string prompt = "Grüße: " + std::string(20000, 'a') + "b" + std::string(100, 'a') + "b";
  PromptIndex index(prompt);
  std::string quote = std::string(100, 'a') + "b";
  auto span = index.Locate(quote);
  ASSERT_TRUE(span);
  EXPECT_EQ(span->kind, MatchKind::kExact);
  // The first place is inside the long run: 19 900 a's after "Grüße: " (9 bytes, 7 code points).
  EXPECT_EQ(span->byte_begin, 9u + 19900u);
  EXPECT_EQ(span->cp_begin, 7u + 19900u);
  EXPECT_EQ(span->byte_end - span->byte_begin, quote.size());
  EXPECT_FALSE(index.Locate(std::string(100, 'a') + "c"));
  // Normalised: case folded and white space collapsed, still a long quote.
  auto folded = index.Locate("GRÜSSE:   " + std::string(60, 'A'));
  ASSERT_TRUE(folded);
  EXPECT_EQ(folded->kind, MatchKind::kNormalized);
  EXPECT_EQ(folded->byte_begin, 0u);
  EXPECT_EQ(folded->byte_end, 9u + 60u);
}

TEST(Locate, InventedQuoteAndEmptyQuoteAreNotFound) {
  PromptIndex index("The meeting is on Monday.");
  EXPECT_FALSE(index.Locate("Tuesday"));
  EXPECT_FALSE(index.Locate(""));
  EXPECT_FALSE(index.Locate("   "));
}

TEST(Normalize, InvalidUtf8ReadsAsReplacementAndDoesNotCrash) {
  NormalizedText n = Normalize("ab\xFF\xC3 cd");
  EXPECT_EQ(n.text.size(), n.origin_begin.size());
  EXPECT_NE(n.text.find("cd"), std::string::npos);
}

}  // namespace
}  // namespace structure::pipeline::evidence
