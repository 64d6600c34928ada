#include "pipeline/input/split.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

namespace structure::pipeline {
namespace {

bool IsContinuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The invariants every split keeps: in order, covering, overlapping, bounded, never inside a
// UTF-8 sequence, and each part ends further than the one before.
void CheckParts(std::string_view doc, const std::vector<InputPart>& parts, size_t max) {
  ASSERT_FALSE(parts.empty());
  EXPECT_EQ(parts.front().begin, 0u);
  EXPECT_EQ(parts.back().end, doc.size());
  for (size_t i = 0; i < parts.size(); ++i) {
    const InputPart& p = parts[i];
    EXPECT_LT(p.begin, p.end) << i;
    EXPECT_LE(p.end - p.begin, std::max<size_t>(max, 16)) << i;
    if (p.begin < doc.size()) {
      EXPECT_FALSE(IsContinuation(doc[p.begin])) << i;
    }
    if (p.end < doc.size()) {
      EXPECT_FALSE(IsContinuation(doc[p.end])) << i;
    }
    if (i > 0) {
      EXPECT_LE(p.begin, parts[i - 1].end) << "a gap before part " << i;
      EXPECT_GT(p.begin, parts[i - 1].begin) << i;
      EXPECT_GT(p.end, parts[i - 1].end) << i;
      EXPECT_EQ(p.shared_end, parts[i - 1].end) << i;
    }
  }
}

TEST(InputSplitTest, ShortInputIsOnePartAndEmptyIsNone) {
  EXPECT_TRUE(SplitInput("", {}).empty());
  auto parts = SplitInput("one line", {100, 10});
  ASSERT_EQ(parts.size(), 1u);
  EXPECT_EQ(parts[0].begin, 0u);
  EXPECT_EQ(parts[0].end, 8u);
}

TEST(InputSplitTest, CutsAtParagraphsFirst) {
  std::string doc;
  for (int i = 0; i < 20; ++i)
    doc += "Paragraph " + std::to_string(i) + " says one thing. And then another.\n\n";
  auto parts = SplitInput(doc, {200, 20});
  CheckParts(doc, parts, 200);
  ASSERT_GT(parts.size(), 1u);
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    // Every cut is right after a blank line, and every part starts a paragraph.
    EXPECT_EQ(doc.substr(parts[i].end - 2, 2), "\n\n") << i;
    EXPECT_EQ(doc.compare(parts[i + 1].begin, 9, "Paragraph"), 0) << i;
  }
}

TEST(InputSplitTest, OverlapHoldsAtLeastTheBoundaryBefore) {
  std::string doc;
  for (int i = 0; i < 200; ++i) doc += "Line " + std::to_string(i) + " of the ledger\n";
  auto parts = SplitInput(doc, {400, 40});
  CheckParts(doc, parts, 400);
  for (size_t i = 1; i < parts.size(); ++i) {
    EXPECT_GE(parts[i - 1].end - parts[i].begin, 40u) << i;  // at least the overlap asked
    EXPECT_EQ(doc[parts[i].begin - 1], '\n') << i;           // starts a line
    EXPECT_EQ(doc[parts[i - 1].end - 1], '\n') << i;         // the cut ends a line
  }
}

TEST(InputSplitTest, SentencesBeforeWordsAndNeverInsideAWord) {
  std::string doc;
  for (int i = 0; i < 60; ++i) doc += "Word" + std::to_string(i) + " follows. ";
  auto parts = SplitInput(doc, {100, 0});
  CheckParts(doc, parts, 100);
  for (size_t i = 0; i + 1 < parts.size(); ++i)
    EXPECT_EQ(doc.substr(parts[i].end - 2, 2), ". ") << i;
}

TEST(InputSplitTest, OneLongWordIsCutBetweenCodePoints) {
  std::string doc;
  for (int i = 0; i < 100; ++i) doc += "äöü€𝄞";  // 2, 2, 2, 3 and 4 bytes
  auto parts = SplitInput(doc, {37, 5});
  CheckParts(doc, parts, 37);
}

TEST(InputSplitTest, RandomDocumentsKeepTheInvariants) {
  std::mt19937 rng(45);
  const char* pieces[] = {"a", "bc", " ", ". ", "\n", "\n\n", "é", "€", "𝄞", "word", "!"};
  for (int round = 0; round < 300; ++round) {
    std::string doc;
    size_t n = rng() % 3000;
    while (doc.size() < n) doc += pieces[rng() % std::size(pieces)];
    size_t max = 16 + rng() % 600;
    size_t overlap = rng() % (max / 2 + 1);
    auto parts = SplitInput(doc, {max, overlap});
    if (doc.empty()) {
      EXPECT_TRUE(parts.empty());
      continue;
    }
    SCOPED_TRACE("round " + std::to_string(round));
    CheckParts(doc, parts, max);
  }
}

}  // namespace
}  // namespace structure::pipeline
