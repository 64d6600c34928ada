#include "pipeline/request.h"

#include <gtest/gtest.h>

#include "config/engine_config.h"

namespace structure::pipeline {
namespace {

Result<StructureRequest> Parse(const char* text) { return ParseRequest(*ParseJson(text)); }

std::string ErrorOf(const char* text) {
  auto r = Parse(text);
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? "" : r.status().message();
}

TEST(RequestTest, InlineSchemaObjectIsJsonModeWhateverSchemaModeSays) {
  auto r = Parse(R"({"prompt":"p","schema":{"type":"object"},"schemaMode":"named","maxLoops":4})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->mode, SchemaMode::kJson);
  EXPECT_EQ(*r->settings.max_loops, 4);
}

TEST(RequestTest, InlineSchemaIsSharedAndADefaultIsUsedOnlyWhenTheBodyNamesNone) {
  auto own = Parse(R"({"prompt":"p","schema":{"type":"object"}})");
  ASSERT_TRUE(own.ok());
  ASSERT_NE(own->schema, nullptr);
  EXPECT_EQ(ToJson(*own->schema), R"({"type":"object"})");
  auto fallback = std::make_shared<const Json>(*ParseJson(R"({"type":"string"})"));
  auto a = ParseRequest(*ParseJson(R"({"prompt":"p"})"), {}, fallback);
  auto b = ParseRequest(*ParseJson(R"({"prompt":"q"})"), {}, fallback);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->mode, SchemaMode::kJson);
  EXPECT_EQ(a->schema, fallback);  // the same object, not a copy
  EXPECT_EQ(b->schema, fallback);
  auto named = ParseRequest(*ParseJson(R"({"prompt":"p","schemaName":"contact"})"), {}, fallback);
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(named->mode, SchemaMode::kNamed);
  EXPECT_EQ(named->schema, nullptr);
}

TEST(RequestTest, CheckInlineSchemaNamesWhatIsWrong) {
  EXPECT_TRUE(CheckInlineSchema(*ParseJson(R"({"type":"object"})")).ok());
  EXPECT_TRUE(CheckInlineSchema(Json(true)).ok());
  EXPECT_EQ(CheckInlineSchema(Json(3)).message(),
            "schema: must be an object (inline JSON Schema) or a string");
  RequestLimits limits;
  limits.max_schema_bytes = 10;
  EXPECT_EQ(CheckInlineSchema(*ParseJson(R"({"type":"object"})"), limits).message(),
            "schema: is larger than 10 bytes");
}

TEST(RequestTest, StringSchemaIsNamedByDefaultAndTextWhenAsked) {
  auto named = Parse(R"({"prompt":"p","schema":"user-action-record"})");
  ASSERT_TRUE(named.ok());
  EXPECT_EQ(named->mode, SchemaMode::kNamed);
  EXPECT_EQ(named->schema_ref, "user-action-record");
  auto text = Parse(R"({"prompt":"p","schema":"name and age","schemaMode":"text"})");
  ASSERT_TRUE(text.ok());
  EXPECT_EQ(text->mode, SchemaMode::kText);
  auto by_field = Parse(
      R"({"prompt":"p","schemaText":"name and age","tenant":"t","project":"q","priority":"bulk"})");
  ASSERT_TRUE(by_field.ok());
  EXPECT_EQ(by_field->mode, SchemaMode::kText);
  EXPECT_EQ(by_field->priority, Priority::kBulk);
  EXPECT_EQ(by_field->project, "q");
}

TEST(RequestTest, BadFieldsAreNamed) {
  EXPECT_EQ(ErrorOf(R"({"schema":{}})"), "prompt: is required (or files)");
  EXPECT_EQ(ErrorOf(R"({"prompt":7,"schema":{}})"), "prompt: must be a string");
  EXPECT_EQ(ErrorOf(R"({"prompt":"p"})"), "schema: is required (or schemaName, or schemaText)");
  EXPECT_EQ(ErrorOf(R"({"prompt":"p","schema":{},"maxLoops":12})"),
            "maxLoops: must be an integer 1..10 (was 12)");
  EXPECT_EQ(ErrorOf(R"({"prompt":"p","schema":{},"maxLoops":1.5})"),
            "maxLoops: must be an integer 1..10 (was 1.5)");
  EXPECT_EQ(ErrorOf(R"({"prompt":"p","schema":[1]})"),
            "schema: must be an object (inline JSON Schema) or a string");
  EXPECT_EQ(ErrorOf(R"({"prompt":"p","schema":"x","schemaMode":"yaml"})"),
            "schemaMode: must be \"json\", \"named\" or \"text\" (was \"yaml\")");
  EXPECT_EQ(ErrorOf(R"({"prompt":"p","schema":{},"colour":1})"), "colour: unknown field");
  EXPECT_EQ(ErrorOf(R"({"prompt":"p","schema":{},"project":"x"})"), "project: needs a tenant");
  EXPECT_EQ(ErrorOf(R"({"prompt":"p","schema":{},"schemaName":"x"})"),
            "schema: give only one of schema, schemaName, schemaText");
  EXPECT_EQ(ErrorOf("[1]"), "the request must be a JSON object");
}

TEST(RequestTest, ArrayModeWrapsAnItemSchema) {
  auto item = Parse(R"({"prompt":"p","schema":{"type":"object"},"arrayMode":true})");
  ASSERT_TRUE(item.ok()) << item.status().message();
  EXPECT_EQ(ToJson(*item->schema), R"({"type":"array","items":{"type":"object"}})");
  auto list = Parse(
      R"({"prompt":"p","schema":{"type":"array","items":{"type":"string"}},"arrayMode":true})");
  ASSERT_TRUE(list.ok());
  EXPECT_EQ(ToJson(*list->schema), R"({"type":"array","items":{"type":"string"}})");
}

TEST(RequestTest, SettingsOfTheRequestLevelAreRead) {
  auto r = Parse(R"({"prompt":"p","schema":{},"confidenceThreshold":0.5,
                     "requireProviderStrictOutput":false})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->settings.confidence_threshold, 0.5);
  EXPECT_EQ(r->settings.require_provider_strict_output, false);
  auto none = Parse(R"({"prompt":"p","schema":{}})");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->settings.confidence_threshold.has_value());
  EXPECT_FALSE(none->settings.require_provider_strict_output.has_value());
  auto whole = Parse(R"({"prompt":"p","schema":{},"confidenceThreshold":1})");
  ASSERT_TRUE(whole.ok());
  EXPECT_EQ(whole->settings.confidence_threshold, 1.0);
  EXPECT_EQ(ErrorOf(R"({"prompt":"p","schema":{},"confidenceThreshold":1.5})"),
            "confidenceThreshold: must be a number 0..1 (was 1.5)");
  EXPECT_EQ(ErrorOf(R"({"prompt":"p","schema":{},"confidenceThreshold":"high"})"),
            "confidenceThreshold: must be a number 0..1 (was \"high\")");
  EXPECT_EQ(ErrorOf(R"({"prompt":"p","schema":{},"requireProviderStrictOutput":"no"})"),
            "requireProviderStrictOutput: must be true or false (was \"no\")");
}

TEST(RequestTest, EvidenceModeIsReadAndBadValuesAreNamed) {
  auto r = Parse(R"({"prompt":"p","schema":{},"evidence":"require"})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->settings.evidence, config::EvidenceMode::kRequire);
  auto none = Parse(R"({"prompt":"p","schema":{}})");
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->settings.evidence.has_value());
  EXPECT_EQ(ErrorOf(R"({"prompt":"p","schema":{},"evidence":"always"})"),
            "evidence: must be \"off\", \"report\" or \"require\" (was \"always\")");
  EXPECT_EQ(ErrorOf(R"({"prompt":"p","schema":{},"evidence":true})"),
            "evidence: must be \"off\", \"report\" or \"require\" (was true)");
}

TEST(RequestTest, LimitsAreEnforced) {
  RequestLimits limits;
  limits.max_prompt_bytes = 4;
  limits.max_schema_depth = 3;
  auto big = ParseRequest(*ParseJson(R"({"prompt":"12345","schema":{}})"), limits);
  EXPECT_EQ(big.status().message(), "prompt: is larger than 4 bytes");
  auto deep =
      ParseRequest(*ParseJson(R"({"prompt":"1","schema":{"a":{"b":{"c":{"d":{}}}}}})"), limits);
  EXPECT_EQ(deep.status().message(), "schema: is nested deeper than 3 levels");
}

}  // namespace
}  // namespace structure::pipeline
