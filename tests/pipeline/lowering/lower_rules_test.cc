// Golden table: one entry per rewrite rule (tests/data/lowering/rules.json): the exact provider
// schema, the dropped constraints, and the lift of a sample provider output.
#include <gtest/gtest.h>

#include <string>

#include "base/read_file.h"
#include "pipeline/lowering/lift.h"
#include "pipeline/lowering/lower.h"
#include "pipeline/lowering/lower_internal.h"
#include "pipeline/lowering/measure.h"
#include "pipeline/lowering/strict_check.h"

namespace structure::pipeline {
namespace {

TEST(LowerRules, EachRuleMatchesItsGoldenEntry) {
  Result<std::string> text =
      ReadFile(std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/lowering/rules.json");
  ASSERT_TRUE(text.ok());
  Result<Json> rules = ParseJson(*text);
  ASSERT_TRUE(rules.ok()) << rules.status().ToString();
  ASSERT_GE(rules->size(), 10u);
  for (const Json& rule : rules->as_array()) {
    const std::string name = rule.find("rule")->as_string();
    Result<Profile> profile = FindProfile(rule.find("profile")->as_string());
    ASSERT_TRUE(profile.ok()) << name;
    Result<Lowered> l = Lower(*rule.find("schema"), *profile);
    ASSERT_TRUE(l.ok()) << name;
    EXPECT_TRUE(l->strict) << name << ": " << l->reason;
    EXPECT_TRUE(CheckProviderSchema(l->provider_schema, *profile).empty()) << name;
    if (const Json* want = rule.find("provider")) {
      EXPECT_EQ(l->provider_schema, *want) << name << "\n got: " << ToJson(l->provider_schema);
    }
    if (const Json* dropped = rule.find("dropped")) {
      ASSERT_EQ(l->dropped.size(), dropped->size()) << name;
      for (size_t i = 0; i < dropped->size(); ++i) {
        EXPECT_EQ(l->dropped[i].path, dropped->as_array()[i].as_array()[0].as_string()) << name;
        EXPECT_EQ(l->dropped[i].keyword, dropped->as_array()[i].as_array()[1].as_string()) << name;
      }
    }
    if (const Json* output = rule.find("output")) {
      Result<Json> lifted = Lift(*output, l->lift_plan);
      ASSERT_TRUE(lifted.ok()) << name << ": " << lifted.status().ToString();
      EXPECT_EQ(*lifted, *rule.find("lifted")) << name << "\n got: " << ToJson(*lifted);
      Result<Json> embedded = Embed(*lifted, l->lift_plan);
      ASSERT_TRUE(embedded.ok()) << name;
      Result<Json> again = Lift(*embedded, l->lift_plan);
      ASSERT_TRUE(again.ok()) << name;
      EXPECT_EQ(*again, *lifted) << name;
    }
  }
}

TEST(LowerRules, RejectsInputThatIsNotASchema) {
  Profile p = *FindProfile("openai-strict");
  EXPECT_EQ(Lower(Json(3), p).status().code(), Code::kInvalidArgument);
  Result<Json> bad = ParseJson(R"({"type":"object","properties":{"a":{"type":"strang"}}})");
  Result<Lowered> l = Lower(*bad, p);
  ASSERT_FALSE(l.ok());
  EXPECT_NE(l.status().message().find("/properties/a/type"), std::string::npos)
      << l.status().message();
}

TEST(LowerRules, JsonProfileAlwaysFallsBackWithItsReason) {
  Result<Lowered> l = Lower(*ParseJson(R"({"type":"string"})"), *FindProfile("json"));
  ASSERT_TRUE(l.ok());
  EXPECT_FALSE(l->strict);
  EXPECT_FALSE(l->reason.empty());
  EXPECT_EQ(l->need.kind, NeedKind::kPromptOnly);
}

// Past 24 optional properties Anthropic's profile makes them required and nullable (strict);
// past its 16 union-typed parameters nothing helps in one schema: Lower falls back and says why
// (the split plan, pipeline/lowering/split_plan.h, is what cuts such a schema into parts).
TEST(LowerRules, ExceededLimitFallsBackWithTheLimitAsReason) {
  Profile p = *FindProfile("anthropic-strict");
  Json optional = Json::MakeObject();
  for (int i = 0; i < 30; ++i)
    optional.set("p" + std::to_string(i), Json(Json::Object{{"type", Json("string")}}));
  Result<Lowered> many =
      Lower(Json(Json::Object{{"type", Json("object")}, {"properties", optional}}), p);
  ASSERT_TRUE(many.ok());
  EXPECT_TRUE(many->strict) << many->reason;
  Json unions = Json::MakeObject();
  for (int i = 0; i < 20; ++i) {
    Json::Array types{Json("string"), Json("integer")};
    unions.set("u" + std::to_string(i), Json(Json::Object{{"type", Json(types)}}));
  }
  Result<Lowered> l =
      Lower(Json(Json::Object{{"type", Json("object")}, {"properties", unions}}), p);
  ASSERT_TRUE(l.ok());
  EXPECT_FALSE(l->strict);
  EXPECT_NE(l->reason.find("union count"), std::string::npos) << l->reason;
}

TEST(LowerRules, ExceededLimitNamesTheFirstLimitByKind) {
  Profile p;
  p.max_depth = 2;
  p.max_enum_values = 3;
  Json flat = *ParseJson(R"({"type":"object","properties":{"a":{"enum":["x","y","z","w"]}}})");
  LimitHit enums = FirstExceeded(MeasureSchema(flat), p);
  EXPECT_EQ(enums.limit, SizeLimit::kEnumValues);
  EXPECT_EQ(enums.text, "enum value count 4 exceeds the provider limit of 3");
  Json deep = *ParseJson(
      R"({"type":"object","properties":{"a":{"type":"object","properties":{"b":{"type":"array",
          "items":{"enum":["x","y","z","w"]}}}}}})");
  EXPECT_EQ(FirstExceeded(MeasureSchema(deep), p).limit, SizeLimit::kDepth);
  p.max_depth = 0;
  p.max_enum_values = 0;
  LimitHit none = FirstExceeded(MeasureSchema(deep), p);
  EXPECT_EQ(none.limit, SizeLimit::kNone);
  EXPECT_EQ(none.text, "");
}

}  // namespace
}  // namespace structure::pipeline
