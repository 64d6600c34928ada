#include "base/json_scan.h"

#include <gtest/gtest.h>

#include <string>

#include "base/json.h"

namespace structure {
namespace {

// The end of the run from `from`, and whether a byte before it is 0x80 or above.
size_t NaiveRunEnd(const std::string& s, size_t from, bool* non_ascii) {
  *non_ascii = false;
  for (size_t i = from; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == '"' || c == '\\') return i;
    if (c >= 0x80) *non_ascii = true;
  }
  return s.size();
}

// Every byte value at every position of strings up to 19 bytes (both sides of the eight-byte
// blocks), from every start, against the byte-by-byte definition: the end and the non-ASCII
// flag, with and without a high byte right after the probe.
TEST(JsonScanTest, FindsTheFirstByteThatNeedsAnEscapeAtEveryPosition) {
  for (size_t len = 1; len < 20; ++len) {
    for (size_t at = 0; at < len; ++at) {
      for (int b = 0; b < 256; ++b) {
        std::string s(len, 'a');
        s[at] = static_cast<char>(b);
        for (bool high_after : {false, true}) {
          if (high_after && at + 1 < len) s[at + 1] = static_cast<char>(0xE9);
          for (size_t from = 0; from <= len; ++from) {
            bool fast, naive;
            size_t end = PlainRunEnd(s, from, &fast);
            ASSERT_EQ(end, NaiveRunEnd(s, from, &naive))
                << "len " << len << " byte " << b << " at " << at << " from " << from;
            ASSERT_EQ(fast, naive) << "len " << len << " byte " << b << " at " << at << " from "
                                   << from << " high after " << high_after;
          }
        }
      }
    }
  }
}

TEST(JsonScanTest, LongTextRoundTripsThroughWriterAndParser) {
  std::string text;
  for (int i = 0; i < 300; ++i) text += static_cast<char>(i % 128) + std::string("plain run é ");
  text += "\"quoted\" \\ back\\slash";
  std::string written = ToJson(Json(text));
  auto back = ParseJson(written);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->as_string(), text);
  EXPECT_EQ(JsonTextSize(Json(text)), written.size());
}

}  // namespace
}  // namespace structure
