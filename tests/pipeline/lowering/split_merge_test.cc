// The merge of a split plan's answers, as properties: valid parts merge into an answer valid
// for the ORIGINAL schema when no constraint spans parts; constraints that span parts are
// detected, and a violation of the merge is attributed to the part or the constraint it
// belongs to.
#include "pipeline/lowering/split_merge.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "pipeline/generate/generate.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/lowering/split_plan.h"
#include "pipeline/validator/validator.h"
#include "tests/pipeline/lowering/lowering_corpus.h"

namespace structure::pipeline {
namespace {

Json Parse(const std::string& text) {
  Result<Json> j = ParseJson(text);
  EXPECT_TRUE(j.ok()) << j.status().message();
  return *j;
}

// 60 optional string properties f0..f59 plus the extra keywords: past Anthropic's 24.
Json Sixty(const std::string& extra_keywords) {
  std::string props;
  for (int i = 0; i < 60; ++i)
    props += (i ? "," : "") + std::string("\"f") + std::to_string(i) + "\":{\"type\":\"string\"}";
  return Parse("{\"type\":\"object\",\"properties\":{" + props + "}" +
               (extra_keywords.empty() ? "" : "," + extra_keywords) + "}");
}

SplitPlan SplitFor(const Json& schema) {
  Result<Profile> p = FindProfile("anthropic-strict");
  Result<Lowering> l = LowerOrSplit(schema, *p);
  EXPECT_TRUE(l.ok());
  EXPECT_TRUE(l->is_split()) << l->whole.reason;
  return l->split;
}

// Generates an instance for every part, valid for its part, and merges them. False when the
// generator cannot make a valid instance of some part (unsupported keywords).
bool MergedInstance(const SplitPlan& plan, uint64_t seed, Json& merged) {
  std::vector<Json> answers;
  for (const SplitPart& part : plan.parts) {
    Result<Json> instance = GenerateInstance(part.schema, seed);
    if (!instance.ok()) return false;
    auto validator = CompileSchema(part.schema);
    if (!validator.ok() || !(*validator)->Validate(*instance).valid) return false;
    answers.push_back(std::move(*instance));
  }
  Merged m = MergeAnswers(plan, answers);
  if (!m.misaligned.empty()) return false;  // lists of other lengths: re-asked, not merged
  merged = std::move(m.value);
  return true;
}

TEST(SplitMerge, MergeOfValidPartsIsValidWhenNoConstraintSpansParts) {
  std::vector<testing::CorpusFile> corpus = testing::LoadCorpus();
  ASSERT_GE(corpus.size(), 400u);
  std::vector<Profile> profiles;
  profiles.push_back(*FindProfile("anthropic-strict"));
  Profile few = *FindProfile("openai-strict");
  few.max_fields_per_call = 12;  // many more splits, deeper ones among them
  profiles.push_back(few);
  size_t plans = 0, merges = 0;
  for (const Profile& profile : profiles)
    for (size_t i = 0; i < corpus.size(); i += 2) {
      const testing::CorpusFile& f = corpus[i];
      if (!f.parsed || !CompileSchema(f.schema).ok()) continue;
      Result<Lowering> l = LowerOrSplit(f.schema, profile);
      if (!l.ok() || !l->is_split() || !l->split.cross.empty()) continue;
      ++plans;
      auto original = CompileSchema(f.schema);
      for (uint64_t seed = 1; seed <= 3; ++seed) {
        Json merged;
        if (!MergedInstance(l->split, seed, merged)) continue;
        ++merges;
        ValidationResult v = (*original)->Validate(merged);
        EXPECT_TRUE(v.valid) << profile.name << " " << f.name << " seed " << seed << ": "
                             << (v.errors.empty() ? "" : v.errors.front().message);
      }
    }
  std::printf("split plans without cross-part constraints: %zu, merges checked: %zu\n", plans,
              merges);
  EXPECT_GT(merges, 40u);
}

TEST(SplitMerge, DetectsConstraintsThatSpanParts) {
  std::string all_but_f0;
  for (int i = 1; i < 60; ++i)
    all_but_f0 += (i > 1 ? "," : "") + std::string("\"f") + std::to_string(i) + "\"";
  struct Case {
    const char* keyword;
    std::string extra;
  } cases[] = {
      {"dependentRequired", "\"dependentRequired\":{\"f0\":[" + all_but_f0 + "]}"},
      {"if", "\"if\":{\"required\":[\"f0\"]},\"then\":{\"required\":[" + all_but_f0 + "]}"},
      {"dependentSchemas", "\"dependentSchemas\":{\"f0\":{\"required\":[" + all_but_f0 + "]}}"},
      {"unevaluatedProperties", "\"unevaluatedProperties\":false"},
  };
  for (const Case& c : cases) {
    SplitPlan plan = SplitFor(Sixty(c.extra));
    ASSERT_EQ(plan.cross.size(), 1u) << c.keyword;
    EXPECT_EQ(plan.cross[0].constraint.keyword, c.keyword);
    EXPECT_EQ(plan.cross[0].constraint.at, std::string("/") + c.keyword);
    EXPECT_EQ(plan.cross[0].constraint.pointers.size(), 60u) << c.keyword;
    // The re-ask schema holds exactly the fields involved, and the constraint.
    EXPECT_TRUE(plan.cross[0].schema.contains(c.keyword)) << ToJson(plan.cross[0].schema);
  }
  // `required` across parts: an optional object split across parts.
  Json nested = Parse(R"({"type":"object","properties":{"a":{"type":"string"}}})");
  Json inner = Sixty("\"required\":[\"f3\",\"f30\"]");
  nested["properties"].set("inner", inner);
  SplitPlan plan = SplitFor(nested);
  ASSERT_EQ(plan.cross.size(), 1u);
  EXPECT_EQ(plan.cross[0].constraint.keyword, "required");
  EXPECT_EQ(plan.cross[0].constraint.object, "/inner");
  EXPECT_EQ(plan.cross[0].constraint.pointers,
            (std::vector<std::string>{"/inner/f3", "/inner/f30"}));
  // The re-ask must give the object: it is required there.
  EXPECT_EQ(ToJson(*plan.cross[0].schema.find("required")), "[\"inner\"]");
}

TEST(SplitMerge, FieldsOneConstraintReadsStayTogetherWhenTheyFit) {
  SplitPlan plan = SplitFor(Sixty("\"dependentRequired\":{\"f0\":[\"f59\"]}"));
  EXPECT_TRUE(plan.cross.empty());
  int with_both = 0;
  for (const SplitPart& part : plan.parts) {
    bool f0 = false, f59 = false;
    for (const std::string& p : part.pointers) f0 = f0 || p == "/f0", f59 = f59 || p == "/f59";
    with_both += f0 && f59;
    if (f0) {
      EXPECT_TRUE(part.schema.contains("dependentRequired"));
    }
  }
  EXPECT_EQ(with_both, 1);
}

TEST(SplitMerge, AttributesAViolationToItsPartOrItsCrossPartConstraint) {
  std::string all_but_f0;
  for (int i = 1; i < 60; ++i)
    all_but_f0 += (i > 1 ? "," : "") + std::string("\"f") + std::to_string(i) + "\"";
  Json schema = Sixty("\"dependentRequired\":{\"f0\":[" + all_but_f0 + "]},\"required\":[\"f5\"]");
  schema["properties"]["f30"].set("maxLength", Json(2));
  SplitPlan plan = SplitFor(schema);
  ASSERT_EQ(plan.cross.size(), 1u);
  auto validator = CompileSchema(schema);
  Json merged = Parse(R"({"f0": "x", "f30": "too long"})");
  ValidationResult v = (*validator)->Validate(merged);
  ASSERT_FALSE(v.valid);
  bool cross = false, part30 = false, part5 = false;
  for (const ValidationError& e : v.errors) {
    std::string missing;
    if (const Json* m = e.params.find("missingProperty"); m && m->is_string())
      missing = m->as_string();
    Attribution a = Attribute(plan, e.instance_path, e.schema_path, missing);
    if (e.keyword == "dependentRequired") {
      EXPECT_EQ(a.kind, Attribution::Kind::kCross) << e.schema_path;
      cross = true;
    } else if (e.instance_path == "/f30") {
      EXPECT_EQ(a.kind, Attribution::Kind::kParts);
      EXPECT_EQ(a.parts, std::vector<size_t>{static_cast<size_t>(OwnerOf(plan, "/f30"))});
      part30 = true;
    } else if (e.keyword == "required") {
      EXPECT_EQ(a.kind, Attribution::Kind::kParts) << e.message;
      EXPECT_EQ(a.parts, std::vector<size_t>{static_cast<size_t>(OwnerOf(plan, "/f5"))});
      part5 = true;
    }
  }
  EXPECT_TRUE(cross && part30 && part5) << v.errors.size();
}

TEST(SplitMerge, ReplaceFieldsPutsTheReaskedFieldsInPlace) {
  Json merged = Parse(R"({"a": 1, "o": {"x": 1, "y": 2}, "b": 3})");
  ReplaceFields(merged, Parse(R"({"o": {"x": 9}, "c": 4})"), {"/o/x", "/o/y", "/c", "/b"});
  EXPECT_EQ(ToJson(merged), R"({"a":1,"o":{"x":9},"c":4})");
}

TEST(SplitMerge, MergeJoinsObjectsMemberByMember) {
  Merged merged =
      MergeAnswers(SplitPlan{}, {Parse(R"({"a": 1, "o": {"x": 1}})"), Parse(R"({"o": {"y": 2}})")});
  EXPECT_EQ(ToJson(merged.value), R"({"a":1,"o":{"x":1,"y":2}})");
}

// A list of objects whose items alone break the limit is split by columns.
Json Tracks() {
  Json item = Sixty("\"required\":[\"f0\"]");
  Json schema = Parse(R"({"type":"object","properties":{"title":{"type":"string"},
      "tracks":{"type":"array","items":{}}},"required":["tracks"]})");
  schema["properties"]["tracks"].set("items", item);
  return schema;
}

TEST(SplitMerge, ListsOfBigObjectsAreSplitByColumnsAndMergedItemByItem) {
  SplitPlan plan = SplitFor(Tracks());
  ASSERT_GE(plan.parts.size(), 2u);
  EXPECT_TRUE(plan.cross.empty());
  std::vector<Json> answers;
  for (const SplitPart& part : plan.parts) {
    bool columns = false;
    for (const std::string& p : part.pointers) columns = columns || p.rfind("/tracks/-/", 0) == 0;
    EXPECT_TRUE(columns);
    Json a = Json::MakeObject();
    Json list = Json::MakeArray();
    for (int i = 0; i < 2; ++i) {
      Json entry = Json::MakeObject();
      for (const std::string& p : part.pointers)
        if (p.rfind("/tracks/-/", 0) == 0)
          entry.set(p.substr(10), Json(p.substr(10) + "#" + std::to_string(i)));
      list.push_back(std::move(entry));
    }
    a.set("tracks", std::move(list));
    answers.push_back(std::move(a));
  }
  Merged merged = MergeAnswers(plan, answers);
  EXPECT_TRUE(merged.misaligned.empty());
  const Json* second = ValueAt(merged.value, "/tracks/1");
  ASSERT_NE(second, nullptr);
  EXPECT_EQ(second->size(), 60u);
  EXPECT_EQ(ToJson(*second->find("f59")), "\"f59#1\"");
  auto validator = CompileSchema(Tracks());
  EXPECT_TRUE((*validator)->Validate(merged.value).valid);
  // A part that lists another number of entries is re-asked against the longest list.
  answers.back()["tracks"].as_array().pop_back();
  Merged short_one = MergeAnswers(plan, answers);
  ASSERT_EQ(short_one.misaligned.size(), 1u);
  EXPECT_EQ(short_one.misaligned[0].part, plan.parts.size() - 1);
  EXPECT_EQ(short_one.misaligned[0].list, "/tracks");
  EXPECT_EQ(short_one.misaligned[0].anchor_entries.size(), 2u);
  // A violation inside an entry goes to the part owning the column.
  EXPECT_EQ(OwnerOf(plan, "/tracks/1/f59"), OwnerOf(plan, "/tracks/0/f59"));
  EXPECT_GE(OwnerOf(plan, "/tracks/7/f59"), 0);
  Attribution list = Attribute(plan, "/tracks", "/properties/tracks/minItems", "");
  EXPECT_EQ(list.kind, Attribution::Kind::kParts);
  EXPECT_EQ(list.parts.size(), plan.parts.size());
}

}  // namespace
}  // namespace structure::pipeline
