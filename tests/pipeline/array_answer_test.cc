// Array mode's schema wrapping and the records of JSON-array and JSON-Lines answers.
#include "pipeline/loop/array_answer.h"

#include <gtest/gtest.h>

#include "pipeline/validator/validator.h"

namespace structure::pipeline {
namespace {

Json J(const char* text) { return *ParseJson(text); }

TEST(ArrayModeSchemaTest, WrapsAnItemSchemaAndKeepsAnArraySchema) {
  EXPECT_EQ(ToJson(ArrayModeSchema(J(R"({"type":"object"})"))),
            R"({"type":"array","items":{"type":"object"}})");
  EXPECT_EQ(ToJson(ArrayModeSchema(J(R"({"type":"array","items":true})"))),
            R"({"type":"array","items":true})");
  EXPECT_EQ(ToJson(ArrayModeSchema(Json(true))), R"({"type":"array","items":true})");
}

TEST(ArrayModeSchemaTest, ReferencesStillFindTheirTargets) {
  Json wrapped = ArrayModeSchema(J(R"({
    "$schema":"https://json-schema.org/draft/2020-12/schema",
    "type":"object",
    "properties":{"who":{"$ref":"#/$defs/person"},"same":{"$ref":"#/properties/who"},
                  "kids":{"type":"array","items":{"$ref":"#"}},
                  "tag":{"const":{"$ref":"#/not-a-ref"}}},
    "$defs":{"person":{"type":"string","minLength":2}}})"));
  EXPECT_EQ(
      ToJson(wrapped),
      R"({"$schema":"https://json-schema.org/draft/2020-12/schema",)"
      R"("$defs":{"person":{"type":"string","minLength":2}},"type":"array",)"
      R"("items":{"type":"object","properties":{"who":{"$ref":"#/$defs/person"},)"
      R"("same":{"$ref":"#/items/properties/who"},"kids":{"type":"array","items":{"$ref":"#/items"}},)"
      R"("tag":{"const":{"$ref":"#/not-a-ref"}}}}})");
  ValidatorOptions strict;
  strict.strict = true;
  auto v = CompileSchema(wrapped, strict);
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_TRUE((*v)->Validate(J(R"([{"who":"Ada","same":"Bob","kids":[{"who":"Cy"}]}])")).valid);
  EXPECT_FALSE((*v)->Validate(J(R"([{"who":"A"}])")).valid);
  EXPECT_FALSE((*v)->Validate(J(R"([{"kids":[{"same":"B"}]}])")).valid);
}

TEST(ArrayModeSchemaTest, AnItemWithItsOwnIdIsWrappedUnchanged) {
  EXPECT_EQ(ToJson(ArrayModeSchema(J(R"({"$id":"urn:item","$ref":"#/$defs/a","$defs":{"a":{}}})"))),
            R"({"type":"array","items":{"$id":"urn:item","$ref":"#/$defs/a","$defs":{"a":{}}}})");
}

TEST(JsonLinesTest, ReadsOneRecordPerLineWithOrWithoutAFence) {
  EXPECT_EQ(ToJson(*ParseJsonLines("{\"n\":1}\n\n{\"n\":2}\r\n", false)), R"([{"n":1},{"n":2}])");
  EXPECT_EQ(ToJson(*ParseJsonLines("```jsonl\n{\"n\":1}\n{\"n\":2}\n```", false)),
            R"([{"n":1},{"n":2}])");
  EXPECT_EQ(ToJson(*ParseJsonLines("{\"n\":1}", false)), R"([{"n":1}])");
}

TEST(JsonLinesTest, KeepsTheCompleteLinesOfACutOffAnswer) {
  EXPECT_EQ(ToJson(*ParseJsonLines("```json\n{\"n\":1}\n{\"n\":2}\n{\"n\":", true)),
            R"([{"n":1},{"n":2}])");
  EXPECT_FALSE(ParseJsonLines("{\"n\":1}\n{\"n\":", false).has_value()) << "only when cut off";
  EXPECT_FALSE(ParseJsonLines("{\"n\":", true).has_value());
}

TEST(JsonLinesTest, OtherTextIsNotJsonLines) {
  EXPECT_FALSE(ParseJsonLines("[\n  {\"n\": 1}\n]", false).has_value()) << "a pretty-printed array";
  EXPECT_FALSE(ParseJsonLines("{\n  \"n\": 1\n}", false).has_value()) << "a pretty-printed object";
  EXPECT_FALSE(ParseJsonLines("Here you go:\n{\"n\":1}", false).has_value());
  EXPECT_FALSE(ParseJsonLines("", false).has_value());
  EXPECT_FALSE(ParseJsonLines("42", false).has_value());
}

TEST(SeamOverlapTest, CountsTheRecordsAContinuationRepeats) {
  Json kept = J(R"([{"n":1},{"n":2}])");
  // The last kept record written again; then the whole list started over; then no repeat.
  EXPECT_EQ(SeamOverlap(kept.as_array(), J(R"([{"n":2},{"n":3}])").as_array()), 1u);
  EXPECT_EQ(SeamOverlap(kept.as_array(), J(R"([{"n":1},{"n":2},{"n":3}])").as_array()), 2u);
  EXPECT_EQ(SeamOverlap(kept.as_array(), J(R"([{"n":3},{"n":2}])").as_array()), 0u);
  // Deep-equal: member order does not matter, a different value does.
  Json nested = J(R"([{"a":{"x":1,"y":[1,2]}}])");
  EXPECT_EQ(SeamOverlap(nested.as_array(), J(R"([{"a":{"y":[1,2],"x":1}}])").as_array()), 1u);
  EXPECT_EQ(SeamOverlap(nested.as_array(), J(R"([{"a":{"x":1,"y":[1,3]}}])").as_array()), 0u);
  EXPECT_EQ(SeamOverlap(Json::Array(), J(R"([{"n":1}])").as_array()), 0u);
}

}  // namespace
}  // namespace structure::pipeline
