// Unit tests: profiles and overrides, the strict checker, Lift, the need channel, the generator.
#include <gtest/gtest.h>

#include "pipeline/generate/generate.h"
#include "pipeline/generate/regex_sample.h"
#include "pipeline/lowering/drop_note.h"
#include "pipeline/lowering/lift.h"
#include "pipeline/lowering/lower.h"
#include "pipeline/lowering/need_channel.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/lowering/strict_check.h"
#include "pipeline/validator/validator.h"

namespace structure::pipeline {
namespace {

Json J(const char* text) { return *ParseJson(text); }

TEST(Profile, FindsEveryBuiltinAndRejectsUnknownNames) {
  for (const std::string& name : BuiltinProfileNames()) EXPECT_TRUE(FindProfile(name).ok()) << name;
  EXPECT_EQ(FindProfile("nope").status().code(), Code::kNotFound);
  Profile openai = *FindProfile("openai-strict");
  EXPECT_TRUE(openai.all_required);
  EXPECT_EQ(openai.max_depth, 10u);
  EXPECT_EQ(openai.need, NeedKind::kEnvelope);
}

TEST(Profile, OverridesApplyAndBadKeysAreNamed) {
  Result<Profile> p = ApplyProfileOverrides(
      *FindProfile("openai-strict"),
      J(R"({"max_depth":5,"remove_keywords":["pattern"],"need":"root-anyof"})"));
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(p->max_depth, 5u);
  EXPECT_FALSE(p->keywords.count("pattern"));
  EXPECT_EQ(p->need, NeedKind::kRootAnyOf);
  Result<Profile> bad = ApplyProfileOverrides(*FindProfile("gemini"), J(R"({"max_dept":5})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("max_dept"), std::string::npos);
  Result<Profile> round = ApplyProfileOverrides(Profile{}, ProfileToJson(*FindProfile("vllm")));
  ASSERT_TRUE(round.ok());
  EXPECT_EQ(ProfileToJson(*round), ProfileToJson(*FindProfile("vllm")));
}

TEST(Profile, PromptCacheSettingsAreOverridablePerModel) {
  Profile base = *FindProfile("anthropic-strict");
  EXPECT_TRUE(base.prompt_cache);
  EXPECT_EQ(base.cache_min_tokens, 0u);  // the model's documented minimum
  Result<Profile> p =
      ApplyProfileOverrides(base, J(R"({"prompt_cache":false,"cache_min_tokens":2048})"));
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_FALSE(p->prompt_cache);
  EXPECT_EQ(p->cache_min_tokens, 2048u);
  EXPECT_EQ(*ProfileToJson(*p).find("cache_min_tokens"), Json(2048));
  EXPECT_FALSE(ApplyProfileOverrides(base, J(R"({"cache_min_tokens":-1})")).ok());
  EXPECT_FALSE(ApplyProfileOverrides(base, J(R"({"prompt_cache":"yes"})")).ok());
}

// Gemini provider batches: the schema field is a profile setting; responseSchema lowers with the
// legacy rules.
TEST(Profile, BatchSchemaFieldPicksTheProfileABatchLowersWith) {
  Profile gemini = *FindProfile("gemini");
  EXPECT_EQ(gemini.batch_schema_field, "responseJsonSchema");
  EXPECT_EQ(BatchProfile(gemini)->name, "gemini");
  Result<Profile> legacy =
      ApplyProfileOverrides(gemini, J(R"({"batch_schema_field":"responseSchema"})"));
  ASSERT_TRUE(legacy.ok()) << legacy.status().message();
  EXPECT_EQ(BatchProfile(*legacy)->name, "gemini-legacy");
  EXPECT_EQ(*ProfileToJson(*legacy).find("batch_schema_field"), Json("responseSchema"));
  Result<Profile> bad = ApplyProfileOverrides(gemini, J(R"({"batch_schema_field":"schema"})"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "profile override 'batch_schema_field' must be responseJsonSchema or responseSchema");
}

TEST(StrictCheck, ListsEveryOpenAiViolation) {
  std::vector<std::string> why = CheckProviderSchema(
      J(R"({"type":"object","properties":{"a":{"type":"string","minLength":1},"b":{"allOf":[]}},"required":["a"]})"),
      *FindProfile("openai-strict"));
  auto has = [&](const std::string& s) {
    for (const std::string& w : why)
      if (w.find(s) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("(root): objects must set additionalProperties to false"));
  EXPECT_TRUE(has("property 'b' must be listed in required"));
  EXPECT_TRUE(has("/properties/a: keyword 'minLength' is not supported"));
  EXPECT_TRUE(has("/properties/b: keyword 'allOf' is not supported"));
}

TEST(StrictCheck, RootUnionAndRecursionRules) {
  Json root_union = J(
      R"({"anyOf":[{"type":"object","properties":{},"required":[],"additionalProperties":false}]})");
  EXPECT_FALSE(CheckProviderSchema(root_union, *FindProfile("openai-strict")).empty());
  EXPECT_TRUE(CheckProviderSchema(root_union, *FindProfile("gemini")).empty());
  Json rec = J(
      R"({"type":"object","properties":{"n":{"$ref":"#/$defs/n"}},"required":["n"],"additionalProperties":false,
                  "$defs":{"n":{"type":"object","properties":{"n":{"$ref":"#/$defs/n"}},"required":[],"additionalProperties":false}}})");
  EXPECT_TRUE(CheckProviderSchema(rec, *FindProfile("openai-strict")).size() ==
              1);  // n not all-required in the def
  std::vector<std::string> a = CheckProviderSchema(rec, *FindProfile("anthropic-strict"));
  ASSERT_FALSE(a.empty());
  EXPECT_NE(a.back().find("recursive"), std::string::npos);
  EXPECT_TRUE(CheckProviderSchema(J(R"({"type":"string"})"), *FindProfile("json")).empty());
}

TEST(Lift, ReportsDuplicateMapKeysAndBadJsonText) {
  Profile p = *FindProfile("openai-strict");
  Lowered l = *Lower(
      J(R"({"type":"object","properties":{"m":{"type":"object","additionalProperties":{"type":"string"}},"any":{}},"required":["m","any"]})"),
      p);
  Result<Json> dup =
      Lift(J(R"({"m":[{"key":"a","value":"1"},{"key":"a","value":"2"}],"any":"1"})"), l.lift_plan);
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.status().code(), Code::kSchemaViolation);
  // The user's pointer (the map's key), not the list index the provider got.
  EXPECT_EQ(dup.status().message(), "/m/a: the key appears more than once");
  Result<Json> text = Lift(J(R"({"m":[],"any":"{oops"})"), l.lift_plan);
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().message().rfind("/any: the value is not valid JSON (", 0), 0u)
      << text.status().message();
  Result<Json> entry =
      Lift(J(R"({"m":[{"key":"a","value":"1"},{"value":"2"}],"any":"1"})"), l.lift_plan);
  ASSERT_FALSE(entry.ok());
  EXPECT_EQ(entry.status().message(), "/m: entry 1 has no \"key\" string and \"value\"");
  Result<Json> in_map = Lift(J(R"({"m":[{"key":"b","value":"x"}],"any":"1"})"), l.lift_plan);
  EXPECT_TRUE(in_map.ok()) << in_map.status().message();
  Result<Json> good =
      Lift(J(R"({"m":[{"key":"a","value":"1"}],"any":"[1,{\"x\":null}]"})"), l.lift_plan);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, J(R"({"m":{"a":"1"},"any":[1,{"x":null}]})"));
}

TEST(NeedChannel, EachProfileGetsItsFormAndDetectionWorks) {
  Json target = J(R"({"type":"object","properties":{"a":{"type":"string"}},"required":["a"]})");
  Lowered openai = *Lower(target, *FindProfile("openai-strict"));
  EXPECT_EQ(openai.need.kind, NeedKind::kEnvelope);
  EXPECT_TRUE(CheckProviderSchema(openai.need.schema, *FindProfile("openai-strict")).empty());
  EXPECT_EQ(DetectNeed(J(R"({"result":null,"_need":"the date"})"), openai.need), "the date");
  EXPECT_EQ(DetectNeed(J(R"({"result":{"a":"x"},"_need":null})"), openai.need), std::nullopt);
  EXPECT_EQ(*UnwrapNeed(J(R"({"result":{"a":"x"},"_need":null})"), openai.need), J(R"({"a":"x"})"));
  // An answer without the envelope ignored the form; the caller may still take it as it is.
  EXPECT_EQ(UnwrapNeed(J(R"({"a":"x"})"), openai.need).status().code(), Code::kNotFound);
  EXPECT_EQ(UnwrapNeed(J(R"({"result":null,"_need":null})"), openai.need).status().code(),
            Code::kSchemaViolation);
  Lowered anthropic = *Lower(target, *FindProfile("anthropic-strict"));
  EXPECT_EQ(anthropic.need.kind, NeedKind::kSecondTool);
  EXPECT_EQ(anthropic.need.tool.find("name")->as_string(), "need_more_input");
  // Gemini: the envelope, an object root (its docs do not say a root anyOf is taken); the legacy
  // dialect writes the nullable members with `nullable`, its documented form.
  Lowered gemini = *Lower(target, *FindProfile("gemini"));
  EXPECT_EQ(gemini.need.kind, NeedKind::kEnvelope);
  EXPECT_EQ(gemini.need.schema.find("anyOf"), nullptr);
  EXPECT_TRUE(CheckProviderSchema(gemini.need.schema, *FindProfile("gemini")).empty());
  EXPECT_EQ(DetectNeed(J(R"({"_need":"x"})"), gemini.need), "x");
  EXPECT_EQ(DetectNeed(J(R"({"result":{"a":"x"},"_need":null})"), gemini.need), std::nullopt);
  Lowered legacy = *Lower(target, *FindProfile("gemini-legacy"));
  EXPECT_EQ(legacy.need.kind, NeedKind::kEnvelope);
  const Json& props = *legacy.need.schema.find("properties");
  EXPECT_EQ(*props.find("result")->find("nullable"), Json(true));
  EXPECT_EQ(ToJson(*props.find("_need")->find("type")), R"("string")");
  EXPECT_EQ(*props.find("_need")->find("nullable"), Json(true));
  EXPECT_EQ(legacy.need.schema.find("additionalProperties"), nullptr);
  EXPECT_TRUE(CheckProviderSchema(legacy.need.schema, *FindProfile("gemini-legacy")).empty())
      << ToJson(legacy.need.schema);
}

// Gemini documents enum for strings and numbers only: a boolean const (the schema builder's
// `additionalProperties: {"const": false}`) is kept locally, not sent as {"enum":[false]}.
TEST(Lowering, GeminiSendsNoBooleanEnum) {
  Json schema = J(R"({"type":"object","properties":{"closed":{"const":false}},
                      "required":["closed"]})");
  Lowered gemini = *Lower(schema, *FindProfile("gemini"));
  ASSERT_TRUE(gemini.strict);
  EXPECT_EQ(ToJson(gemini.provider_schema).find("enum"), std::string::npos)
      << ToJson(gemini.provider_schema);
  EXPECT_EQ(ToJson(gemini.provider_schema).find("\"const\""), std::string::npos);
  Lowered openai = *Lower(schema, *FindProfile("openai-strict"));
  EXPECT_NE(ToJson(openai.provider_schema).find("\"enum\":[false]"), std::string::npos)
      << ToJson(openai.provider_schema);
}

TEST(Generate, ProducesValidInstancesDeterministically) {
  const char* schemas[] = {
      R"({"type":"object","properties":{"id":{"type":"string","pattern":"^[A-Z]{3}-\\d{4}$"},"n":{"type":"integer","minimum":5,"maximum":9,"multipleOf":2},
          "tags":{"type":"array","items":{"enum":["a","b","c"]},"minItems":2,"uniqueItems":true},"when":{"type":"string","format":"date-time"}},
          "required":["id","n","tags","when"],"additionalProperties":false})",
      R"({"$defs":{"node":{"type":"object","properties":{"v":{"type":"number","exclusiveMinimum":0},"kids":{"type":"array","items":{"$ref":"#/$defs/node"}}},"required":["v"]}},"$ref":"#/$defs/node"})",
      R"({"oneOf":[{"type":"string","minLength":3,"maxLength":5},{"type":"null"}]})",
      R"({"allOf":[{"type":"object","properties":{"a":{"const":1}},"required":["a"]},{"properties":{"b":{"type":"boolean"}},"required":["b"]}]})",
      R"({"type":"object","patternProperties":{"^x-[a-z]+$":{"type":"integer"}},"additionalProperties":false,"minProperties":1})",
      R"({"type":"array","prefixItems":[{"type":"string"},{"type":"integer"}],"items":false,"minItems":2})",
  };
  for (const char* text : schemas) {
    Json schema = J(text);
    std::shared_ptr<const Validator> v = *CompileSchema(schema);
    for (uint64_t seed = 1; seed <= 20; ++seed) {
      Result<Json> x = GenerateInstance(schema, seed);
      ASSERT_TRUE(x.ok()) << text << ": " << x.status().ToString();
      ValidationResult r = v->Validate(*x, true);
      EXPECT_TRUE(r.valid) << text << "\n"
                           << ToJson(*x) << "\n"
                           << (r.errors.empty() ? "" : r.errors[0].message);
      EXPECT_EQ(*GenerateInstance(schema, seed), *x);
    }
  }
}

// A value of any type lowers to a string holding JSON text (kJsonTextNote); the generator writes
// JSON text there, as a model reading the note does, so an open object's instance lifts back.
TEST(Generate, AStringForAnyJsonValueHoldsJsonText) {
  Result<Lowered> l = Lower(J(R"({"type":"object"})"), *FindProfile("openai-strict"));
  ASSERT_TRUE(l.ok());
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Result<Json> x = GenerateInstance(l->provider_schema, seed);
    ASSERT_TRUE(x.ok()) << x.status().ToString();
    Result<Json> y = Lift(*x, l->lift_plan);
    ASSERT_TRUE(y.ok()) << ToJson(*x) << ": " << y.status().ToString();
    EXPECT_TRUE(y->is_object()) << ToJson(*y);
  }
  Json any_text = Json::MakeObject();
  any_text.set("type", "string");
  any_text.set("description", std::string(kJsonTextNote));
  Result<Json> text = GenerateInstance(any_text, 7);
  ASSERT_TRUE(text.ok());
  EXPECT_TRUE(ParseJson(text->as_string()).ok()) << text->as_string();
}

// Where the provider has no null type (gemini-legacy), a null-only schema is the JSON text "null"
// in a string, and lifts back to null.
TEST(Lower, NullWithoutANullTypeIsTheTextNull) {
  Result<Lowered> l = Lower(J(R"({"type":"object","properties":{"p":{"type":"null"}},)"
                              R"("required":["p"],"additionalProperties":false})"),
                            *FindProfile("gemini-legacy"));
  ASSERT_TRUE(l.ok());
  const Json& p = *l->provider_schema.find("properties")->find("p");
  EXPECT_EQ(ToJson(*p.find("enum")), R"(["null"])");
  EXPECT_TRUE(l->dropped.empty());
  Result<Json> y = Lift(J(R"({"p":"null"})"), l->lift_plan);
  ASSERT_TRUE(y.ok()) << y.status().ToString();
  EXPECT_EQ(ToJson(*y), R"({"p":null})");
}

TEST(Generate, FailsCleanlyOnUnsatisfiableSchemas) {
  EXPECT_EQ(GenerateInstance(Json(false), 1).status().code(), Code::kInvalidArgument);
  EXPECT_FALSE(GenerateInstance(J(R"({"type":"string","minLength":5,"maxLength":2})"), 1).ok());
  EXPECT_FALSE(GenerateInstance(J(R"({"$ref":"#/nowhere"})"), 1).ok());
  EXPECT_FALSE(GenerateInstance(J(R"({"type":"integer","minimum":3,"maximum":2})"), 1).ok());
}

TEST(RegexSample, MatchesAndRejectsUnsupportedSyntax) {
  for (const char* p : {"^[a-f0-9]{8}$", "^(foo|bar)+\\.baz?$", "\\d{3}-\\w+",
                        "^[^@\\s]+@[^@\\s]+$", "^\\u00e9+$"}) {
    Result<std::string> s = SampleRegexMatch(p, 7, 0, 40);
    EXPECT_TRUE(s.ok()) << p << ": " << s.status().ToString();
  }
  EXPECT_FALSE(SampleRegexMatch("(?=a)b", 1).ok());
  EXPECT_FALSE(SampleRegexMatch("(a)\\1", 1).ok());
  EXPECT_FALSE(IsSimpleRegex("\\bword", 100));
  EXPECT_TRUE(IsSimpleRegex("^[a-z]{1,10}$", 100));
  EXPECT_FALSE(IsSimpleRegex("^a{1,500}$", 100));
}

// The note lowering writes into a description reads back as the values it holds: a pattern
// with "; " in it, a number, and a value cut at 120 characters (null: present, not readable).
TEST(DropNote, ReadsBackWhatLoweringWrote) {
  std::string d = WithDropNote("An id.", "pattern", Json("^a; b$"));
  d = WithDropNote(d, "minLength", Json(int64_t{3}));
  d = WithDropNote(d, "format", Json(std::string(200, 'x')));
  EXPECT_EQ(d.rfind("An id. Also required (checked after generation): pattern=", 0), 0u) << d;
  EXPECT_EQ(DroppedKeyword(d, "pattern"), Json("^a; b$"));
  EXPECT_EQ(DroppedKeyword(d, "minLength"), Json(int64_t{3}));
  EXPECT_EQ(DroppedKeyword(d, "format"), Json());
  EXPECT_EQ(DroppedKeyword(d, "maxLength"), std::nullopt);
  EXPECT_EQ(DroppedKeyword("An id. minLength=3", "minLength"), std::nullopt);  // no note
}

}  // namespace
}  // namespace structure::pipeline
