// Fail closed: a keyword the validator cannot honour makes
// the schema an error that names its location, never "accept anything".
#include <gtest/gtest.h>

#include <string>

#include "pipeline/schema_stage.h"
#include "pipeline/validator/validator.h"

namespace structure::pipeline {
namespace {

std::string CompileError(const std::string& text, const ValidatorOptions& options = {}) {
  auto v = CompileSchema(*ParseJson(text), options);
  return v.ok() ? std::string("(compiled)") : v.status().message();
}

TEST(ValidatorFailClosed, RefusesKeywordValuesOfTheWrongType) {
  EXPECT_EQ(
      CompileError(R"({"type":5})"),
      "schema /type: must be a type name (null, boolean, object, array, number, string, integer) "
      "or an array of them");
  EXPECT_EQ(CompileError(R"({"minimum":"x"})"), "schema /minimum: must be a number");
  EXPECT_EQ(CompileError(R"({"properties":{"a":{"minLength":"3"}}})"),
            "schema /properties/a/minLength: must be a non-negative integer");
  EXPECT_EQ(CompileError(R"({"properties":{"a":5}})"), "schema /properties/a: must be a schema");
  EXPECT_EQ(CompileError(R"({"properties":[]})"),
            "schema /properties: must be an object of schemas");
  EXPECT_EQ(CompileError(R"({"additionalProperties":1})"),
            "schema /additionalProperties: must be a schema");
  EXPECT_EQ(CompileError(R"({"items":"x"})"), "schema /items: must be a schema");
  EXPECT_EQ(CompileError(R"({"if":true,"then":3})"), "schema /then: must be a schema");
}

TEST(ValidatorFailClosed, RefusesInvalidPatternsWithTheirPath) {
  EXPECT_EQ(CompileError(R"({"properties":{"id":{"pattern":"(("}}})")
                .rfind("schema /properties/id/pattern: invalid pattern", 0),
            0u);
  EXPECT_EQ(CompileError(R"({"patternProperties":{"[":true}})")
                .rfind("schema /patternProperties/[: invalid pattern", 0),
            0u);
}

TEST(ValidatorFailClosed, RunsPatternsPastRe2LimitsOnTheBacktracker) {
  // RE2 refuses nested counts whose product passes 1000; the pattern is valid ECMA-262.
  auto v = CompileSchema(*ParseJson(R"({"pattern":"^(a{2}){600}$"})"));
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_TRUE((*v)->ValidateText("\"" + std::string(1200, 'a') + "\"")->valid);
  auto r = (*v)->ValidateText("\"" + std::string(1199, 'a') + "\"");
  ASSERT_FALSE(r->valid);
  EXPECT_EQ(r->errors[0].keyword, "pattern");
  EXPECT_FALSE((*v)->ValidateText("\"b\"")->valid);
}

TEST(ValidatorFailClosed, CountsAPatternOverItsStepLimitAsNotMatching) {
  ValidatorOptions options;
  options.max_regex_steps = 1000;
  auto v = CompileSchema(*ParseJson(R"j({"pattern":"^(a|a)*(?=b)"})j"), options);
  ASSERT_TRUE(v.ok()) << v.status().message();
  auto r = (*v)->ValidateText("\"" + std::string(40, 'a') + "c\"");
  ASSERT_FALSE(r->valid);
  EXPECT_NE(r->errors[0].message.find("step limit"), std::string::npos) << r->errors[0].message;
}

TEST(ValidatorFailClosed, BoundsTheBacktrackersStackOnLongSubjects) {
  // Each group iteration nests the matcher once more; 600 000 of them would overflow any
  // thread's stack. The stack bound stops it with the same not-matching verdict.
  ValidatorOptions options;
  options.max_regex_steps = 100'000'000;
  auto v = CompileSchema(*ParseJson(R"j({"pattern":"^(?:(a|b))*(?=c)"})j"), options);
  ASSERT_TRUE(v.ok()) << v.status().message();
  std::string subject = "\"";
  for (int i = 0; i < 300'000; ++i) subject += "ab";
  auto r = (*v)->ValidateText(subject + "\"");
  ASSERT_FALSE(r->valid);
  EXPECT_NE(r->errors[0].message.find("step limit"), std::string::npos)
      << r->errors[0].message.substr(0, 200);
}

TEST(ValidatorFailClosed, RefusesUnresolvableRefNamingItUnlessAllowed) {
  const std::string schema = R"({"properties":{"t":{"$ref":"https://taskfile.dev/schema.json"}}})";
  std::string error = CompileError(schema);
  EXPECT_EQ(
      error.rfind("schema /properties/t/$ref: cannot resolve \"https://taskfile.dev/schema.json\"",
                  0),
      0u)
      << error;
  ValidatorOptions allow;
  allow.allow_unresolved_refs = true;
  auto v = CompileSchema(*ParseJson(schema), allow);
  ASSERT_TRUE(v.ok());
  ASSERT_EQ((*v)->warnings().size(), 1u);
  EXPECT_NE((*v)->warnings()[0].find("accepted as any value"), std::string::npos);
  EXPECT_TRUE((*v)->ValidateText(R"({"t":42})")->valid);
  EXPECT_EQ(CompileError(R"({"$ref":"#/$defs/missing"})")
                .rfind("schema /$ref: cannot resolve \"#/$defs/missing\"", 0),
            0u);
}

TEST(ValidatorFailClosed, WarnsOnItemsArrayIn2020AndRefusesItUnderStrict) {
  const std::string schema = R"({"items":[{"type":"string"}]})";
  auto lenient = CompileSchema(*ParseJson(schema));
  ASSERT_TRUE(lenient.ok());
  ASSERT_EQ((*lenient)->warnings().size(), 1u);
  EXPECT_EQ(
      (*lenient)->warnings()[0].rfind("schema /items: an array has no meaning in draft 2020-12", 0),
      0u);
  ValidatorOptions strict;
  strict.strict = true;
  EXPECT_EQ(CompileError(schema, strict).rfind("schema /items: an array has no meaning", 0), 0u);
  // Draft-07 gives the array form its tuple meaning: no warning.
  auto d7 = CompileSchema(*ParseJson(
      R"({"$schema":"http://json-schema.org/draft-07/schema#","items":[{"type":"string"}]})"));
  ASSERT_TRUE(d7.ok());
  EXPECT_TRUE((*d7)->warnings().empty());
  EXPECT_FALSE((*d7)->ValidateText("[1]")->valid);
}

TEST(ValidatorFailClosed, CheckSchemaIsTheEnginesVerdict) {
  auto bad = CheckSchema(*ParseJson(R"({"minimum":"x"})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(), "schema /minimum: must be a number");
  auto resolved = ResolveSchema(*ParseJson(R"({"$ref":"other.json"})"), "inline");
  ASSERT_FALSE(resolved.ok());
  EXPECT_EQ(resolved.status().message().rfind("schema /$ref: cannot resolve \"other.json\"", 0),
            0u);
  EXPECT_TRUE(ResolveSchema(*ParseJson(R"({"$ref":"other.json"})"), "inline", "", "", true).ok());
  EXPECT_TRUE(CheckSchema(Json(true)).ok());
  EXPECT_TRUE(CheckSchema(Json::MakeObject()).ok());
}

}  // namespace
}  // namespace structure::pipeline
