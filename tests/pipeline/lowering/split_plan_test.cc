// The split plan and the merge, as properties: every field owned by exactly one part, parts
// within every limit, the merge of valid parts valid for the original when no constraint spans
// parts, and the constraints that do span parts detected and attributed.
#include "pipeline/lowering/split_plan.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "pipeline/generate/generate.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/lowering/split_merge.h"
#include "pipeline/lowering/strict_check.h"
#include "pipeline/validator/validator.h"
#include "tests/pipeline/lowering/lowering_corpus.h"

namespace structure::pipeline {
namespace {

Profile Named(const char* name) {
  Result<Profile> p = FindProfile(name);
  EXPECT_TRUE(p.ok());
  return *p;
}

Json Parse(const std::string& text) {
  Result<Json> j = ParseJson(text);
  EXPECT_TRUE(j.ok()) << j.status().message();
  return *j;
}

// An object with `n` optional string properties f0..f<n-1> (the first `required` required).
Json Wide(int n, int required = 0, const std::string& prefix = "f") {
  Json props = Json::MakeObject();
  Json req = Json::MakeArray();
  for (int i = 0; i < n; ++i) {
    props.set(prefix + std::to_string(i), Json(Json::Object{{"type", Json("string")}}));
    if (i < required) req.push_back(Json(prefix + std::to_string(i)));
  }
  Json s = Json::MakeObject();
  s.set("type", Json("object"));
  s.set("properties", std::move(props));
  if (req.size() > 0) s.set("required", std::move(req));
  return s;
}

Lowering Plan(const Json& schema, const Profile& profile) {
  Result<Lowering> l = LowerOrSplit(schema, profile);
  EXPECT_TRUE(l.ok()) << l.status().message();
  return l.ok() ? *l : Lowering{};
}

// The fields below `pointer` are covered by the parts exactly once: owned whole by one part,
// or split into fields that are.
void ExpectCoveredOnce(const PartSchemas& schemas, const SplitPlan& plan,
                       const std::string& pointer) {
  int owners = 0;
  bool below = false;
  for (const SplitPart& part : plan.parts)
    for (const std::string& p : part.pointers) {
      if (PointerWithin(pointer, p)) ++owners;
      if (p != pointer && PointerWithin(p, pointer)) below = true;
    }
  if (owners > 0) {
    EXPECT_EQ(owners, 1) << pointer << " is owned by more than one part";
    EXPECT_FALSE(below) << pointer << " is owned whole and in pieces";
    return;
  }
  ASSERT_TRUE(below) << pointer << " is owned by no part";
  for (const std::string& f : schemas.Fields(pointer)) ExpectCoveredOnce(schemas, plan, f);
}

void ExpectPartition(const Json& schema, const SplitPlan& plan) {
  PartSchemas schemas(schema);
  for (const std::string& f : schemas.Fields("")) ExpectCoveredOnce(schemas, plan, f);
  size_t pointers = 0;
  std::set<std::string> distinct;
  for (const SplitPart& part : plan.parts) {
    pointers += part.pointers.size();
    distinct.insert(part.pointers.begin(), part.pointers.end());
  }
  EXPECT_EQ(pointers, distinct.size());
}

TEST(SplitPlan, SchemaWithinTheLimitsIsNotSplit) {
  Lowering l = Plan(Wide(20), Named("anthropic-strict"));
  EXPECT_TRUE(l.whole.strict);
  EXPECT_FALSE(l.is_split());
}

TEST(SplitPlan, OptionalPastTheLimitBecomesNullableWhileUnionsAreLeft) {
  Profile p = Named("anthropic-strict");
  Lowering l = Plan(Wide(40), p);  // 24 optional + 16 required and nullable
  EXPECT_TRUE(l.whole.strict) << l.whole.reason;
  EXPECT_FALSE(l.is_split());
  EXPECT_EQ(MeasureSchema(l.whole.need.schema).optional, 24u);
  EXPECT_EQ(MeasureSchema(l.whole.need.schema).unions, 16u);
  EXPECT_FALSE(Plan(Wide(41), p).whole.strict);
}

TEST(SplitPlan, OptionalCountPastAnthropicsLimitSplitsIntoBalancedStrictParts) {
  Profile p = Named("anthropic-strict");
  Json schema = Wide(100);
  Lowering l = Plan(schema, p);
  ASSERT_TRUE(l.is_split()) << l.whole.reason;
  EXPECT_EQ(l.split.forced_by.limit, SizeLimit::kOptional);
  ASSERT_EQ(l.split.parts.size(), 3u);
  size_t fewest = 100, most = 0, all = 0;
  for (const SplitPart& part : l.split.parts) {
    fewest = std::min(fewest, part.pointers.size());
    most = std::max(most, part.pointers.size());
    all += part.pointers.size();
  }
  EXPECT_EQ(all, 100u);
  EXPECT_LE(most - fewest, 2u);  // balanced: 32 to 34 fields each
  for (const SplitPart& part : l.split.parts) {
    EXPECT_LE(part.measures.optional, 24u);
    EXPECT_LE(part.measures.unions, 16u);
    EXPECT_TRUE(CheckProviderSchema(part.lowered.need.schema, p).empty());
  }
  EXPECT_EQ(l.split.parts[0].pointers.front(), "/f0");  // stable order: document order
  ExpectPartition(schema, l.split);
  EXPECT_TRUE(l.split.cross.empty());
}

TEST(SplitPlan, GoesDeeperWhenOneFieldAloneIsTooBig) {
  Json schema = Wide(3, 3, "top");
  schema["properties"].set("big", Wide(60, 2));
  schema["required"].push_back(Json("big"));
  Lowering l = Plan(schema, Named("anthropic-strict"));
  ASSERT_TRUE(l.is_split()) << l.whole.reason;
  bool deep = false;
  for (const SplitPart& part : l.split.parts)
    for (const std::string& p : part.pointers) deep = deep || p.rfind("/big/", 0) == 0;
  EXPECT_TRUE(deep);
  ExpectPartition(schema, l.split);
  // /big is required, so every part that holds a piece of it gives it: nothing spans parts.
  EXPECT_TRUE(l.split.cross.empty());
}

TEST(SplitPlan, KeepsEachDefinitionWithThePartsThatUseIt) {
  Json schema = Wide(70);
  schema.set("$defs", Parse(R"({"A": {"type": "integer"}, "B": {"type": "boolean"},
                                "C": {"type": "object", "properties": {"b": {"$ref": "#/$defs/B"}},
                                      "required": ["b"]}})"));
  schema["properties"].set("first", Parse(R"({"$ref": "#/$defs/A"})"));
  schema["properties"].set("last", Parse(R"({"$ref": "#/$defs/C"})"));
  Lowering l = Plan(schema, Named("anthropic-strict"));
  ASSERT_TRUE(l.is_split()) << l.whole.reason;
  for (const SplitPart& part : l.split.parts) {
    std::set<std::string> want;
    for (const std::string& p : part.pointers) {
      if (p == "/first") want.insert("A");
      if (p == "/last") want.insert("B"), want.insert("C");
    }
    std::set<std::string> have;
    if (const Json* defs = part.schema.find("$defs"))
      for (const auto& [name, sub] : defs->as_object()) have.insert(name);
    EXPECT_EQ(have, want) << part.pointers.front();
    EXPECT_TRUE(CompileSchema(part.schema).ok());
  }
}

TEST(SplitPlan, FallsBackWithTheReasonPastMaxSplitParts) {
  Profile p = Named("anthropic-strict");
  p.max_split_parts = 9;
  Lowering l = Plan(Wide(400), p);  // 10 parts of 24 optional and 16 nullable
  EXPECT_FALSE(l.is_split());
  EXPECT_FALSE(l.whole.strict);
  EXPECT_NE(l.whole.reason.find("optional property count 400"), std::string::npos)
      << l.whole.reason;
  EXPECT_NE(l.whole.reason.find("max_split_parts"), std::string::npos) << l.whole.reason;
  p.max_split_parts = 10;
  EXPECT_EQ(Plan(Wide(400), p).split.parts.size(), 10u);
}

TEST(SplitPlan, MaxFieldsPerCallSplitsASchemaTheProviderTakes) {
  Profile p = Named("openai-strict");
  EXPECT_FALSE(Plan(Wide(100), p).is_split());
  p.max_fields_per_call = 30;
  Lowering l = Plan(Wide(100), p);
  ASSERT_TRUE(l.is_split()) << l.whole.reason;
  EXPECT_EQ(l.split.forced_by.limit, SizeLimit::kFields);
  EXPECT_EQ(l.split.parts.size(), 4u);
  for (const SplitPart& part : l.split.parts) EXPECT_LE(part.pointers.size(), 30u);
}

TEST(SplitPlan, GrammarBudgetSplitsASchemaTheDocumentedLimitsAllow) {
  Profile p = Named("gemini");
  Json schema = Wide(80);
  size_t grammar = MeasureSchema(Plan(schema, p).whole.need.schema).grammar;
  p.max_grammar_size = grammar / 2 + 10;
  Lowering l = Plan(schema, p);
  ASSERT_TRUE(l.is_split()) << l.whole.reason;
  EXPECT_EQ(l.split.forced_by.limit, SizeLimit::kGrammar);
  for (const SplitPart& part : l.split.parts) EXPECT_LE(part.measures.grammar, p.max_grammar_size);
}

TEST(SplitPlan, EachPartsNeedChannelNamesOnlyItsOwnFields) {
  Lowering l = Plan(Wide(100), Named("anthropic-strict"));
  ASSERT_TRUE(l.is_split());
  const SplitPart& second = l.split.parts[1];
  std::string text = ToJson(second.lowered.need.tool);
  EXPECT_NE(text.find(second.pointers.front()), std::string::npos) << text;
  EXPECT_EQ(text.find("\"/f0,"), std::string::npos) << text;
  EXPECT_EQ(text.find("among /f0,"), std::string::npos) << text;
}

}  // namespace
}  // namespace structure::pipeline
