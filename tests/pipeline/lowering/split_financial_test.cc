// The generated 369-leaf financial report (tests/support/financial_report_schema.h) through the
// lowering of each strict profile: OpenAI and Gemini take it whole; Anthropic (24 optional and
// 16 union-typed properties per request) needs 11 parts, one more than the count alone says.
#include <gtest/gtest.h>

#include <cstdio>
#include <set>
#include <string>

#include "pipeline/lowering/profile.h"
#include "pipeline/lowering/split_plan.h"
#include "pipeline/lowering/strict_check.h"
#include "tests/support/financial_report_schema.h"

namespace structure::pipeline {
namespace {

Lowering Plan(const char* profile_name, size_t max_parts = 0) {
  Result<Profile> p = FindProfile(profile_name);
  EXPECT_TRUE(p.ok());
  if (max_parts) p->max_split_parts = max_parts;
  Result<Lowering> l = LowerOrSplit(testing::FinancialReportSchema(), *p);
  EXPECT_TRUE(l.ok()) << l.status().message();
  return l.ok() ? *l : Lowering{};
}

TEST(SplitFinancial, TheGeneratedReportHas369LeavesMostlyOptionalNumbers) {
  Json schema = testing::FinancialReportSchema();
  EXPECT_EQ(testing::CountLeaves(schema), testing::kFinancialReportLeaves);
  EXPECT_EQ(schema, testing::FinancialReportSchema());  // deterministic
  Result<Profile> anthropic = FindProfile("anthropic-strict");
  SchemaMeasures m = MeasureSchema(schema);
  EXPECT_GT(m.optional, 300u);    // leaves and sections not listed in `required`
  EXPECT_EQ(m.enum_values, 99u);  // 25 enums
  EXPECT_GT(m.optional, anthropic->max_optional + anthropic->max_unions);
}

TEST(SplitFinancial, OpenAiAndGeminiTakeTheReportWhole) {
  for (const char* name : {"openai-strict", "gemini"}) {
    Lowering l = Plan(name);
    EXPECT_TRUE(l.whole.strict) << name << ": " << l.whole.reason;
    EXPECT_FALSE(l.is_split()) << name;
  }
}

TEST(SplitFinancial, AnthropicSplitsTheReportInElevenStrictPartsWithinItsLimits) {
  Lowering l = Plan("anthropic-strict");
  ASSERT_TRUE(l.is_split()) << l.whole.reason;
  EXPECT_EQ(l.split.forced_by.limit, SizeLimit::kOptional);
  EXPECT_EQ(l.split.parts.size(), 11u);
  Result<Profile> profile = FindProfile("anthropic-strict");
  std::set<std::string> owned;
  size_t weight = 0;  // optional + union-typed properties over all parts
  for (const SplitPart& part : l.split.parts) {
    EXPECT_TRUE(part.as_text.empty());
    EXPECT_LE(part.measures.optional, profile->max_optional);
    EXPECT_LE(part.measures.unions, profile->max_unions);
    EXPECT_TRUE(CheckProviderSchema(part.lowered.need.schema, *profile).empty());
    weight += part.measures.optional + part.measures.unions;
    for (const std::string& p : part.pointers) EXPECT_TRUE(owned.insert(p).second) << p;
    std::printf("part of %zu fields: %zu optional, %zu nullable, from %s\n", part.measures.fields,
                part.measures.optional, part.measures.unions, part.pointers.front().c_str());
  }
  // Ten parts hold at most 400; the sections a cut shares (an optional object in each part
  // that holds some of its fields) bring the 399 optional properties past that.
  std::printf("optional properties %zu whole, %zu over the parts\n", l.whole.exceeded.value,
              weight);
  EXPECT_GT(weight, 10 * (profile->max_optional + profile->max_unions));
  EXPECT_EQ(Plan("anthropic-strict", 10).split.parts.size(), 0u);
}

TEST(SplitFinancial, PastMaxSplitPartsTheReportFallsBackAndSaysWhy) {
  Lowering l = Plan("anthropic-strict", 8);
  EXPECT_FALSE(l.is_split());
  EXPECT_FALSE(l.whole.strict);
  EXPECT_NE(l.whole.reason.find("it needs more than 8 parts (max_split_parts)"), std::string::npos)
      << l.whole.reason;
}

}  // namespace
}  // namespace structure::pipeline
