// Structured errors: instance path, schema path, keyword, params, actual value and the one-line
// message in the form the re-ask reasons use, collected in a stable order; first-error mode.
#include <gtest/gtest.h>

#include <cctype>
#include <string>
#include <vector>

#include "base/read_file.h"
#include "pipeline/validator/validator.h"

namespace structure::pipeline {
namespace {

const std::string kBench = std::string(STRUCTURE_CORPORA_DIR) + "/bench-schemas/";

std::shared_ptr<const Validator> CompileText(std::string_view text) {
  Result<Json> schema = ParseJson(text);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  auto v = CompileSchema(*schema);
  EXPECT_TRUE(v.ok()) << v.status().ToString();
  return v.ok() ? *v : nullptr;
}

std::vector<std::string> Messages(const ValidationResult& r) {
  std::vector<std::string> out;
  for (const ValidationError& e : r.errors) out.push_back(e.message);
  return out;
}

TEST(ValidatorErrors, ReportsSeedFormForMaximumOnBenchSchema) {
  auto v = CompileSchema(*ParseJson(*ReadFile(kBench + "s1_action.schema.json")));
  ASSERT_TRUE(v.ok());
  auto r = (*v)->ValidateText(*ReadFile(kBench + "s1_action.invalid.json"));
  ASSERT_TRUE(r.ok());
  ASSERT_FALSE(r->valid);
  ASSERT_EQ(r->errors.size(), 1u);
  const ValidationError& e = r->errors[0];
  EXPECT_EQ(e.message, "/priority: value must be <= 5 (was 7)");
  EXPECT_EQ(e.instance_path, "/priority");
  EXPECT_EQ(e.schema_path, "/properties/priority/maximum");
  EXPECT_EQ(e.keyword, "maximum");
  EXPECT_EQ(ToJson(e.params), R"({"comparison":"<=","limit":5})");
  EXPECT_EQ(e.actual, "7");
}

TEST(ValidatorErrors, ReportsSchemaPathThroughRef) {
  auto v = CompileSchema(*ParseJson(*ReadFile(kBench + "s2_order.schema.json")));
  ASSERT_TRUE(v.ok());
  auto r = (*v)->ValidateText(*ReadFile(kBench + "s2_order.invalid.json"));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->errors.size(), 1u);
  EXPECT_EQ(r->errors[0].instance_path, "/items/17/quantity");
  EXPECT_EQ(r->errors[0].keyword, "minimum");
  EXPECT_EQ(r->errors[0].message, "/items/17/quantity: value must be >= 1 (was 0)");
  EXPECT_EQ(r->errors[0].schema_path.rfind("/$defs/", 0), 0u) << r->errors[0].schema_path;
}

struct MessageCase {
  const char* schema;
  const char* instance;
  std::vector<std::string> messages;
};

class ValidatorMessageTable : public ::testing::TestWithParam<MessageCase> {};

TEST_P(ValidatorMessageTable, ProducesExactMessages) {
  const MessageCase& c = GetParam();
  auto v = CompileText(c.schema);
  ASSERT_NE(v, nullptr);
  auto r = v->ValidateText(c.instance);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(Messages(*r), c.messages);
  EXPECT_EQ(r->valid, c.messages.empty());
}

INSTANTIATE_TEST_SUITE_P(
    Keywords, ValidatorMessageTable,
    ::testing::Values(
        MessageCase{
            R"({"type":"integer"})", R"("3")", {R"((root): value must be integer (was "3"))"}},
        MessageCase{
            R"({"type":["string","null"]})", "5", {"(root): value must be null or string (was 5)"}},
        MessageCase{R"({"required":["a","b"]})",
                    R"({"a":1})",
                    {R"((root): missing required property "b")"}},
        MessageCase{R"({"enum":["x","y"]})",
                    R"("z")",
                    {R"((root): value must be one of ["x","y"] (was "z"))"}},
        MessageCase{R"({"const":1})", "1.0", {}},
        MessageCase{
            R"({"properties":{"tags":{"items":{"pattern":"^[a-z][a-z0-9-]+$"}}}})",
            R"({"tags":["ok","fine","Camel-Case"]})",
            {R"(/tags/2: value must match pattern "^[a-z][a-z0-9-]+$" (was "Camel-Case"))"}},
        MessageCase{R"({"additionalProperties":false,"properties":{"a":true}})",
                    R"({"a":1,"extra":2})",
                    {R"((root): property "extra" is not allowed)"}},
        MessageCase{R"({"maxLength":3})",
                    R"("abcd")",
                    {"(root): string must have at most 3 characters (was 4)"}},
        MessageCase{
            R"({"minItems":2})", "[1]", {"(root): array must have at least 2 items (has 1)"}},
        MessageCase{R"({"format":"date-time"})",
                    R"("2024-13-01T00:00:00Z")",
                    {R"((root): value must be a valid date-time (was "2024-13-01T00:00:00Z"))"}},
        MessageCase{R"({"uniqueItems":true})",
                    "[1,2,1]",
                    {"(root): array items must be unique (items 0 and 2 are equal)"}},
        MessageCase{
            R"({"multipleOf":0.5})", "7.3", {"(root): value must be a multiple of 0.5 (was 7.3)"}},
        MessageCase{R"({"exclusiveMinimum":0})", "0", {"(root): value must be > 0 (was 0)"}},
        MessageCase{R"({"dependentRequired":{"a":["b"]}})",
                    R"({"a":1})",
                    {R"((root): property "b" is required when "a" is present)"}},
        MessageCase{
            R"({"anyOf":[{"type":"string"},{"type":"null"}]})",
            "5",
            {R"((root): value must match at least one schema in anyOf: value must be string (was 5); value must be null (was 5))"}},
        MessageCase{R"({"oneOf":[{"minimum":0},{"maximum":10}]})",
                    "5",
                    {"(root): value must match exactly one schema in oneOf (matched 0 and 1)"}},
        MessageCase{R"({"not":{"type":"string"}})",
                    R"("s")",
                    {R"((root): value must not match the "not" schema (was "s"))"}},
        MessageCase{
            R"({"if":{"properties":{"kind":{"const":"card"}}},"then":{"required":["last4"]}})",
            R"({"kind":"card"})",
            {R"((root): missing required property "last4")"}},
        MessageCase{
            R"({"contains":{"type":"string"}})",
            "[1,2]",
            {R"((root): array must contain at least 1 item(s) matching the "contains" schema (found 0))"}},
        MessageCase{R"({"prefixItems":[true],"items":false})",
                    "[1,2,3]",
                    {"(root): array must have at most 1 items (has 3)"}},
        MessageCase{R"({"unevaluatedProperties":false,"properties":{"a":true}})",
                    R"({"a":1,"b":2})",
                    {R"((root): property "b" is not allowed (unevaluatedProperties))"}},
        MessageCase{R"({"properties":{"a~b/c":{"type":"string"}}})",
                    R"({"a~b/c":1})",
                    {"/a~0b~1c: value must be string (was 1)"}},
        MessageCase{R"({"properties":{"p":{"minimum":1},"a":{"type":"string"}}})",
                    R"({"p":0,"a":1})",
                    {"/p: value must be >= 1 (was 0)", "/a: value must be string (was 1)"}}),
    // Named after the schema's first keyword, so ctest lists e.g. Keywords/...Messages/minLength_0.
    [](const ::testing::TestParamInfo<MessageCase>& info) {
      std::string_view schema = info.param.schema;
      size_t open = schema.find('"') + 1;
      std::string name(schema.substr(open, schema.find('"', open) - open));
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name + "_" + std::to_string(info.index);
    });

TEST(ValidatorErrors, StopsAtFirstErrorInFastMode) {
  auto v =
      CompileText(R"({"properties":{"p":{"minimum":1},"a":{"type":"string"}},"required":["z"]})");
  auto all = v->ValidateText(R"({"p":0,"a":1})", true);
  auto first = v->ValidateText(R"({"p":0,"a":1})", false);
  ASSERT_TRUE(all.ok() && first.ok());
  EXPECT_EQ(all->errors.size(), 3u);
  ASSERT_EQ(first->errors.size(), 1u);
  EXPECT_EQ(first->errors[0].message, all->errors[0].message);
}

TEST(ValidatorErrors, TruncatesLongActualValues) {
  auto v = CompileText(R"({"type":"number"})");
  auto r = v->ValidateText("\"" + std::string(500, 'x') + "\"");
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->errors.size(), 1u);
  EXPECT_LE(r->errors[0].actual.size(), 84u);
  EXPECT_EQ(r->errors[0].actual.substr(r->errors[0].actual.size() - 3), "...");
}

TEST(ValidatorErrors, ValidatesJsonValuesLikeText) {
  auto v = CompileText(R"({"type":"object","properties":{"n":{"maximum":5}}})");
  Json instance = Json::MakeObject();
  instance.set("n", 7);
  ValidationResult r = v->Validate(instance);
  ASSERT_FALSE(r.valid);
  EXPECT_EQ(r.errors[0].message, "/n: value must be <= 5 (was 7)");
}

}  // namespace
}  // namespace structure::pipeline

namespace structure::pipeline {
namespace {

// The compiled plan (pipeline/validator/plan.h) fuses `required` into `properties` and lets members
// skip `$ref`-only nodes; errors keep their order and locations.
TEST(ValidatorErrors, ReportsFusedRequiredInSchemaOrder) {
  auto before =
      CompileText(R"({"required":["a","b"],"properties":{"a":{"type":"string"},"b":true}})");
  auto after =
      CompileText(R"({"properties":{"a":{"type":"string"},"b":true},"required":["a","b"]})");
  const char* instance = R"({"a":1})";
  const std::string missing = R"((root): missing required property "b")";
  const std::string type = "/a: value must be string (was 1)";
  EXPECT_EQ(Messages(*before->ValidateText(instance, false)), std::vector<std::string>{missing});
  EXPECT_EQ(Messages(*before->ValidateText(instance, true)),
            (std::vector<std::string>{missing, type}));
  EXPECT_EQ(Messages(*after->ValidateText(instance, false)), std::vector<std::string>{type});
  EXPECT_EQ(Messages(*after->ValidateText(instance, true)),
            (std::vector<std::string>{type, missing}));
  EXPECT_TRUE(before->ValidateText(R"({"b":null,"a":"x"})")->valid);
}

TEST(ValidatorErrors, KeepsTargetLocationsThroughSkippedRefs) {
  auto v = CompileText(R"({"$defs":{"n":{"type":"integer","minimum":1},"no":false},
                          "properties":{"x":{"$ref":"#/$defs/n"},"y":{"$ref":"#/$defs/no"}},
                          "items":{"$ref":"#/$defs/n"}})");
  auto r = v->ValidateText(R"({"x":0})");
  ASSERT_EQ(r->errors.size(), 1u);
  EXPECT_EQ(r->errors[0].instance_path, "/x");
  EXPECT_EQ(r->errors[0].schema_path, "/$defs/n/minimum");
  r = v->ValidateText("[1,2.5]");
  ASSERT_EQ(r->errors.size(), 1u);
  EXPECT_EQ(r->errors[0].message, "/1: value must be integer (was 2.5)");
  r = v->ValidateText(R"({"y":1})");
  ASSERT_EQ(r->errors.size(), 1u);
  EXPECT_EQ(r->errors[0].keyword, "false");
  EXPECT_EQ(r->errors[0].schema_path, "/$defs/no");
  EXPECT_TRUE(v->ValidateText("[1,2.0]")->valid);
}

TEST(ValidatorErrors, StopsAtFirstErrorAcrossPropertiesAndPatternProperties) {
  auto v = CompileText(
      R"({"properties":{"a":{"type":"string"}},"patternProperties":{"^a":{"minimum":5}}})");
  EXPECT_EQ(v->ValidateText(R"({"a":1})", false)->errors.size(), 1u);
  EXPECT_EQ(v->ValidateText(R"({"a":1})", true)->errors.size(), 2u);
}

}  // namespace
}  // namespace structure::pipeline
