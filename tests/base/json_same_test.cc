#include "base/json_same.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/json.h"

namespace structure {
namespace {

Json Parsed(const std::string& text) { return *ParseJson(text); }

// Pairs of values: SameJsonText must agree with comparing their written texts.
const std::vector<std::pair<std::string, std::string>> kPairs = {
    {R"({"type":"object","required":["a"]})", R"({"type":"object","required":["a"]})"},
    {R"({"a":1,"b":2})", R"({"b":2,"a":1})"},  // equal as values, not as text
    {"1", "1.0"},
    {"1.5", "1.50"},
    {"0.0", "-0.0"},
    {"123456789012345678901234567890", "123456789012345678901234567890"},
    {"123456789012345678901234567890", "123456789012345678901234567891"},
    {"[1,[2,3]]", "[1,[2,3]]"},
    {"[1,[2,3]]", "[1,[2]]"},
    {R"({"a":{"b":null}})", R"({"a":{"b":false}})"},
    {R"({"a":"x"})", R"({"a":"x","b":"y"})"},
    {R"("caf\u00e9")", R"("café")"},
    {"true", "true"},
    {"{}", "[]"},
};

TEST(SameJsonTextTest, AgreesWithComparingTheWrittenTexts) {
  for (const auto& [a, b] : kPairs) {
    Json x = Parsed(a), y = Parsed(b);
    bool same_text = ToJson(x) == ToJson(y);
    EXPECT_EQ(SameJsonText(x, y), same_text) << a << " vs " << b;
    EXPECT_EQ(SameJsonText(y, x), same_text) << b << " vs " << a;
    EXPECT_TRUE(SameJsonText(x, x)) << a;
  }
}

TEST(SameJsonTextTest, TellsAnIntegerFromTheSameDouble) {
  EXPECT_FALSE(SameJsonText(Json(1), Json(1.0)));
  EXPECT_TRUE(SameJsonText(Json(2.5), Json(2.5)));
  EXPECT_FALSE(SameJsonText(Json(0.0), Json(-0.0)));
}

}  // namespace
}  // namespace structure
