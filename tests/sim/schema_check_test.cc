// Provider-style schema checks: the built-in subset (used when the lowering library is absent)
// and the dispatcher that answers 400 only for providers that reject rather than ignore.
#include "sim/schema_check.h"

#include <gtest/gtest.h>

namespace structure::sim {
namespace {

Json J(const char* text) { return ParseJson(text).value(); }

TEST(SchemaCheckTest, BuiltInSubsetRejectsWhatTheProvidersDocumentAsRejected) {
  struct Case {
    const char* profile;
    const char* schema;
    const char* expected;  // substring of the first issue; nullptr = accepted
  };
  const Case cases[] = {
      {"openai-strict",
       R"({"type":"object","properties":{"a":{"type":"string"}},"required":["a"],"additionalProperties":false})",
       nullptr},
      {"openai-strict",
       R"({"type":"object","properties":{"a":{"type":"string"}},"additionalProperties":false})",
       "Missing 'a'"},
      {"openai-strict", R"({"type":"object","properties":{},"required":[]})",
       "additionalProperties"},
      {"openai-strict", R"({"anyOf":[{"type":"object"}]})", "root schema must not be 'anyOf'"},
      {"anthropic-strict",
       R"({"type":"object","properties":{"n":{"type":"integer","maximum":5}},"additionalProperties":false})",
       "maximum"},
      {"anthropic-strict",
       R"({"type":"object","properties":{"s":{"type":"string"}},"additionalProperties":false})",
       nullptr},
      {"gemini-legacy",
       R"({"type":"object","properties":{"s":{"type":"string"}},"additionalProperties":false})",
       "Unknown name \"additionalProperties\""},
      {"gemini-legacy", R"({"type":["string","null"]})", "Proto field is not repeating"},
      {"gemini", R"({"type":"object","not":{}})", nullptr},
  };
  for (const auto& c : cases) {
    auto issues = BasicSchemaIssues(J(c.schema), c.profile);
    if (!c.expected) {
      EXPECT_TRUE(issues.empty()) << c.profile << " " << c.schema << ": " << issues.front();
    } else {
      ASSERT_FALSE(issues.empty()) << c.profile << " " << c.schema;
      EXPECT_NE(issues.front().find(c.expected), std::string::npos) << issues.front();
    }
  }
}

TEST(SchemaCheckTest, OnlyRejectingProvidersProduceIssues) {
  Json open = J(R"({"type":"object","properties":{"a":{"type":"string","minLength":3}}})");
  EXPECT_FALSE(ProviderSchemaIssues(open, "openai-strict").empty());
  EXPECT_FALSE(ProviderSchemaIssues(open, "anthropic-strict").empty());
  EXPECT_TRUE(ProviderSchemaIssues(open, "gemini").empty());
  EXPECT_TRUE(ProviderSchemaIssues(open, "ollama").empty());
}

TEST(SchemaCheckTest, AcceptsCapitalisedGeminiTypeNames) {
  Json legacy = J(R"({"type":"OBJECT","properties":{"n":{"type":"INTEGER"}}})");
  EXPECT_TRUE(ProviderSchemaIssues(legacy, "gemini-legacy").empty());
  EXPECT_EQ(ToJson(LowerCaseTypes(legacy)),
            R"({"type":"object","properties":{"n":{"type":"integer"}}})");
}

}  // namespace
}  // namespace structure::sim
