#include "pipeline/loop/extract_json.h"

#include <gtest/gtest.h>

namespace structure::pipeline {
namespace {

TEST(ExtractJsonTest, TakesABareObject) {
  auto r = ExtractJson(" {\"a\":1} \n");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(ToJson(r->value), "{\"a\":1}");
  EXPECT_FALSE(r->had_prose);
  EXPECT_FALSE(r->repaired);
}

TEST(ExtractJsonTest, TakesTheFencedBlock) {
  auto r = ExtractJson("Here you go:\n```json\n{\"a\": [1, 2]}\n```\nAnything else?");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(ToJson(r->value), "{\"a\":[1,2]}");
  EXPECT_TRUE(r->had_prose);
}

TEST(ExtractJsonTest, FindsTheObjectInsideProse) {
  auto r =
      ExtractJson("Sure! The record is {\"name\": \"Mike\", \"note\": \"a } in text\"} as asked.");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->value.find("note")->as_string(), "a } in text");
}

TEST(ExtractJsonTest, RepairsOnlyTrailingCommas) {
  auto r = ExtractJson("{\"a\": [1, 2,], \"b\": \"x,]\",}");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_TRUE(r->repaired);
  EXPECT_EQ(ToJson(r->value), "{\"a\":[1,2],\"b\":\"x,]\"}");
}

TEST(ExtractJsonTest, NeverGuessesMalformedJson) {
  auto r = ExtractJson("{\"a\": 1, \"b\": }");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("malformed"), std::string::npos) << r.status().message();
}

TEST(ExtractJsonTest, SaysWhenTheAnswerIsTruncated) {
  auto r = ExtractJson("{\"a\": 1, \"b\": [1, 2");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("truncated"), std::string::npos) << r.status().message();
}

TEST(ExtractJsonTest, SaysWhenThereIsNoJson) {
  EXPECT_EQ(ExtractJson("I cannot help with that.").status().message(),
            "no JSON object found in the answer");
  EXPECT_EQ(ExtractJson("   ").status().message(), "the answer is empty");
}

TEST(ParseStrictTest, RejectsProseAroundJson) {
  EXPECT_TRUE(ParseStrict("{\"a\":1}").ok());
  EXPECT_FALSE(ParseStrict("ok: {\"a\":1}").ok());
}

}  // namespace
}  // namespace structure::pipeline
