#include "base/json_reader.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/json.h"

namespace structure {
namespace {

// The value of a one-string document as ParseJson reads it, or "<error>".
std::string Parsed(const std::string& literal) {
  auto v = ParseJson(literal);
  return v.ok() && v->is_string() ? v->as_string() : "<error>";
}

std::string Read(const std::string& literal) {
  size_t pos = 0;
  std::string out;
  if (ReadJsonString(literal, &pos, out) != JsonStringError::kNone) return "<error>";
  return pos == literal.size() ? out : "<trailing text>";
}

TEST(JsonReaderTest, ReadsStringsExactlyAsParseJson) {
  const std::vector<std::string> literals = {
      R"("plain")",
      R"("")",
      R"("a\"b\\c\/d\b\f\n\r\t")",
      R"("\u00e9\u4e2d")",
      R"("\ud83d\ude00")",                 // a surrogate pair
      R"("\ud800")",                       // a lone high surrogate: U+FFFD
      R"("\ud800\u0041")",                 // a high surrogate before a letter
      R"("\udc00x")",                      // a lone low surrogate
      R"("\ud800\ud800\udc00")",           // a lone high one, then a pair
      R"("\ud800\uZZZZ")",                 // a bad escape after a high surrogate
      R"("\u12")",                         // truncated
      R"("\u12G4")",                       // not hex
      R"("\x")",                           // not an escape
      "\"\\",                              // ends in an escape
      "\"abc",                             // unterminated
      "\"a\tb\"",                          // a raw control character
      "\"caf\xC3\xA9 \xF0\x9F\x98\x80\"",  // UTF-8
      "\"bad \xC3\x28\"",                  // invalid UTF-8
      "\"\xED\xA0\x80\"",                  // an encoded surrogate
      "\"long plain run of text, longer than eight bytes \\n and more\"",
  };
  for (const std::string& l : literals) EXPECT_EQ(Read(l), Parsed(l)) << l;
}

// Skip accepts exactly the documents ParseJson accepts.
TEST(JsonReaderTest, SkipAcceptsWhatParseJsonAccepts) {
  std::vector<std::string> texts = {"0",
                                    "-0",
                                    "01",
                                    "1.",
                                    "1.5",
                                    "-1.5e+3",
                                    "1e",
                                    "1E-2",
                                    "-",
                                    "+1",
                                    "1e999",
                                    "-1e400",
                                    "1.0e308",
                                    "123456789012345678901234567890",
                                    "true",
                                    "tru",
                                    "false",
                                    "nul",
                                    "null",
                                    "\"s\"",
                                    "[]",
                                    "[1,]",
                                    "[,1]",
                                    "[1 2]",
                                    "{}",
                                    "{,}",
                                    "{\"a\":1,}",
                                    "{\"a\" 1}",
                                    "{\"a\":1 \"b\":2}",
                                    "{1:2}",
                                    " { \"a\" : [ 1 , { } ] } ",
                                    "[1] x",
                                    "",
                                    "   ",
                                    "[",
                                    "{\"a\":",
                                    "{\"\\u00e9\":\"x\"}",
                                    "{\"a\xC3\x28\":1}"};
  texts.push_back(std::string(511, '[') + std::string(511, ']'));
  texts.push_back(std::string(600, '[') + std::string(600, ']'));
  for (const std::string& t : texts) {
    JsonReader r(t);
    bool skipped = r.Skip() && r.AtEnd();
    EXPECT_EQ(skipped, ParseJson(t).ok()) << t.substr(0, 80);
  }
}

TEST(JsonReaderTest, ReadsMembersAndElementsWithDecodedKeys) {
  JsonReader r(R"( {"a\u0062" : "x\n", "n": -12, "list": [1, "two", {"k": null}], "z": true} )");
  std::vector<std::string> keys;
  std::string s;
  int64_t n = 0;
  int elements = 0;
  ASSERT_TRUE(r.Object([&](std::string_view key) {
    keys.emplace_back(key);
    if (key == "ab") return r.String(s);
    if (key == "n") return r.Int(n);
    if (key == "list") {
      return r.Array([&] {
        ++elements;
        return r.Skip();
      });
    }
    return r.Skip();
  }));
  EXPECT_TRUE(r.AtEnd());
  EXPECT_EQ(keys, (std::vector<std::string>{"ab", "n", "list", "z"}));
  EXPECT_EQ(s, "x\n");
  EXPECT_EQ(n, -12);
  EXPECT_EQ(elements, 3);
}

TEST(JsonReaderTest, IntRefusesWhatIsNotAnInt64Literal) {
  for (const char* text : {"1.5", "1e3", "9223372036854775808", "\"1\"", "null", "-"}) {
    JsonReader r(text);
    int64_t v = 0;
    EXPECT_FALSE(r.Int(v)) << text;
  }
  JsonReader r("-9223372036854775808");
  int64_t v = 0;
  EXPECT_TRUE(r.Int(v));
  EXPECT_EQ(v, INT64_MIN);
}

}  // namespace
}  // namespace structure
