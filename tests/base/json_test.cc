#include "base/json.h"

#include <gtest/gtest.h>

#include <string>

namespace structure {
namespace {

TEST(JsonTest, RoundTripsCompactText) {
  const char* cases[] = {
      "null", "true", "false", "0", "-12", "1.5", "\"a\\\"b\\\\c\\n\"", "[]", "{}",
      "[1,2.5,\"x\",null,true,{\"k\":[{}]}]", "{\"b\":1,\"a\":2}", "9223372036854775807",
  };
  for (const char* text : cases) {
    auto parsed = ParseJson(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status().message();
    EXPECT_EQ(ToJson(*parsed), text);
  }
}

TEST(JsonTest, KeepsObjectInsertionOrder) {
  Json o = Json::MakeObject();
  o.set("z", 1);
  o.set("a", 2);
  o.set("z", 3);  // replaced in place
  EXPECT_EQ(ToJson(o), "{\"z\":3,\"a\":2}");
  EXPECT_TRUE(o.erase("z"));
  EXPECT_EQ(ToJson(o), "{\"a\":2}");
}

TEST(JsonTest, EqualityFollowsJsonSchemaRules) {
  EXPECT_EQ(*ParseJson("1"), *ParseJson("1.0"));
  EXPECT_EQ(*ParseJson("{\"a\":1,\"b\":2}"), *ParseJson("{\"b\":2,\"a\":1}"));
  EXPECT_NE(*ParseJson("[1,2]"), *ParseJson("[2,1]"));
  EXPECT_NE(*ParseJson("0"), *ParseJson("false"));
  EXPECT_NE(*ParseJson("null"), *ParseJson("{}"));
}

TEST(JsonTest, DecodesUnicodeEscapesAndSurrogatePairs) {
  auto v = ParseJson("\"\\u00e9\\ud83d\\ude00\"");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->as_string(), "\xc3\xa9\xf0\x9f\x98\x80");
}

TEST(JsonTest, EscapesControlCharactersOnOutput) {
  EXPECT_EQ(ToJson(Json(std::string("a\x01" "b"))), "\"a\\u0001b\"");
}

TEST(JsonTest, IntegralDoublesKeepTheirPoint) {
  EXPECT_EQ(ToJson(Json(2.0)), "2.0");
  EXPECT_TRUE(Json(2.0).is_integral());
  EXPECT_FALSE(Json(2.5).is_integral());
  EXPECT_EQ(ToJson(Json(1e300 * 1e300)), "null");
}

TEST(JsonTest, TextSizeIsTheLengthOfTheCompactText) {
  const char* cases[] = {
      "null", "-12", "9223372036854775807", "1.5", "2.0", "1e+300", "\"\"",
      "\"a\\\"b\\\\c\\n\\t\\u0001\xc3\xa9\"", "[]", "{}",
      "[1,2.5,\"x\",null,true,false,{\"k\":[{}],\"q\\\"\":-0.25}]",
  };
  for (const char* text : cases) {
    auto parsed = ParseJson(text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.status().message();
    EXPECT_EQ(JsonTextSize(*parsed), ToJson(*parsed).size()) << text;
  }
  EXPECT_EQ(JsonTextSize(Json(1e300 * 1e300)), 4u);  // written as null
}

TEST(JsonTest, SplicesWriteTextInPlaceOfTheirNodes) {
  Json body = *ParseJson(R"({"a":null,"b":[1,null],"c":{"d":null}})");
  const Json* a = body.find("a");
  const Json* b1 = &body.find("b")->as_array()[1];
  JsonSplice splices[] = {{a, R"({"type":"string"})"}, {b1, "[true]"}};
  EXPECT_EQ(ToJsonSpliced(body, splices), R"({"a":{"type":"string"},"b":[1,[true]],"c":{"d":null}})");
  EXPECT_EQ(ToJsonSpliced(body, {}), ToJson(body));
}

TEST(JsonTest, ReportsLineAndColumnOfSyntaxErrors) {
  ParseOptions o;
  o.source = "schema.json";
  auto r = ParseJson("{\n  \"a\": 1,\n  \"b\" 2\n}", o);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "schema.json:3:7: expected ':' after an object key");
}

TEST(JsonTest, RejectsMalformedInputWithoutCrashing) {
  const char* cases[] = {"", "{", "[1,]", "{\"a\"}", "tru", "01", "1.", "\"abc", "[1] 2",
                         "{\"a\":1,}", "\"\\x\"", "-", "1e"};
  for (const char* text : cases) {
    EXPECT_FALSE(ParseJson(text).ok()) << text;
  }
}

TEST(JsonTest, BoundsNestingDepth) {
  std::string deep(100000, '[');
  auto r = ParseJson(deep);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("nesting deeper than 512"), std::string::npos);
  std::string ok_depth = std::string(100, '[') + std::string(100, ']');
  EXPECT_TRUE(ParseJson(ok_depth).ok());
}

TEST(JsonTest, PrettyPrintsWithTwoSpaces) {
  auto v = ParseJson("{\"a\":[1,2],\"b\":{}}");
  EXPECT_EQ(ToJson(*v, true), "{\n  \"a\": [\n    1,\n    2\n  ],\n  \"b\": {}\n}");
}

TEST(JsonTest, IndexOperatorCreatesMembers) {
  Json j;
  j["a"]["b"] = Json(true);
  j["list"].push_back(1);
  EXPECT_EQ(ToJson(j), "{\"a\":{\"b\":true},\"list\":[1]}");
  EXPECT_EQ(j.find("missing"), nullptr);
  EXPECT_EQ(j.size(), 2u);
}

TEST(ReadFileTest, MissingFileIsNotFound) {
  auto r = ReadFile("/nonexistent/structure/file.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kNotFound);
}

}  // namespace
}  // namespace structure
