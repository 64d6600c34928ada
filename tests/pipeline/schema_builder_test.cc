#include "pipeline/schema_builder.h"

#include <gtest/gtest.h>

namespace structure::pipeline {
namespace {

providers::ProviderReply Answer(const std::string& content) {
  providers::ProviderReply r;
  r.content = content;
  return r;
}

// The builder as the engine runs it, on the plain-JSON profile (no lowering rewrites).
LoopSpec BuilderSpec(const std::string& description) {
  auto profile = FindProfile("json");
  EXPECT_TRUE(profile.ok());
  auto spec = MakeContentSpec(BuilderRequest(description), BuilderSchema(), *profile,
                              config::Settings{}, "m");
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  ConfigureBuilderLoop(*spec);
  return *spec;
}

constexpr const char* kGood = R"({
  "schema": {"type": "object", "properties": {
     "name": {"type": "string"}, "priority": {"type": "integer", "minimum": 1, "maximum": 5}},
     "required": ["name", "priority"], "additionalProperties": false},
  "confidence": 0.93, "clarifyingQuestions": []})";

TEST(SchemaBuilderTest, MetaSchemaCompilesAndAcceptsAPracticalSchema) {
  auto v = CompileSchema(BuilderMetaSchema());
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_TRUE((*v)->Validate(*ParseJson(kGood)).valid);
  auto bad = (*v)->Validate(*ParseJson(
      R"({"schema":{"type":"object","oneOf":[]},"confidence":2,"clarifyingQuestions":[]})"));
  EXPECT_FALSE(bad.valid);
}

TEST(SchemaBuilderTest, ConfidentAnswerYieldsTheSchema) {
  LoopSpec spec = BuilderSpec("name (string), priority (integer 1-5)");
  LoopState st;
  Start(spec, st);
  Step s = OnReply(spec, st, Answer(kGood));
  ASSERT_TRUE(std::holds_alternative<Finish>(s));
  BuilderDecision d = DecideBuilderResult(std::get<Finish>(s).result, 0.8);
  ASSERT_EQ(d.status, Outcome::kOk);
  EXPECT_EQ(d.schema.find("required")->size(), 2u);
}

TEST(SchemaBuilderTest, LowConfidenceOrQuestionsBecomeNeedMoreInput) {
  StructureResult r;
  r.status = Outcome::kOk;
  r.data = *ParseJson(R"({"schema":{"type":"object"},"confidence":0.5,"clarifyingQuestions":[]})");
  BuilderDecision low = DecideBuilderResult(r, 0.8);
  EXPECT_EQ(low.status, Outcome::kNeedMoreInput);
  EXPECT_NE(low.need.find("too ambiguous"), std::string::npos);
  r.data = *ParseJson(
      R"({"schema":{"type":"object"},"confidence":0.95,"clarifyingQuestions":["Is the date required?"]})");
  BuilderDecision q = DecideBuilderResult(r, 0.8);
  EXPECT_EQ(q.status, Outcome::kNeedMoreInput);
  EXPECT_EQ(q.need, "Is the date required?");
}

TEST(SchemaBuilderTest, UnusableSchemaIsReaskedThenStale) {
  LoopSpec spec = BuilderSpec("a code like AB-12");
  LoopState st;
  Start(spec, st);
  const char* bad =
      R"({"schema":{"type":"string","pattern":"(unclosed"},"confidence":0.9,"clarifyingQuestions":[]})";
  Step s = OnReply(spec, st, Answer(bad));
  ASSERT_TRUE(std::holds_alternative<SendCall>(s));
  EXPECT_NE(std::get<SendCall>(s).call.turns.back().text.find("/schema: not a usable JSON Schema"),
            std::string::npos);
  Step s2 = OnReply(spec, st, Answer(bad));
  ASSERT_TRUE(std::holds_alternative<Finish>(s2));
  EXPECT_EQ(std::get<Finish>(s2).result.status, Outcome::kStale);  // at most 2 attempts
}

TEST(SchemaBuilderTest, NormalizationIgnoresSpacingOnly) {
  EXPECT_EQ(NormalizeDescription("  name (string),\n\tpriority  "), "name (string), priority");
  EXPECT_EQ(DescriptionKey(NormalizeDescription("a  b")), DescriptionKey("a b"));
  EXPECT_NE(DescriptionKey("a b"), DescriptionKey("a c"));
  EXPECT_EQ(DescriptionKey("x").size(), 32u);
}

}  // namespace
}  // namespace structure::pipeline
