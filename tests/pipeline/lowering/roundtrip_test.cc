// Round-trip property tests over the real-world corpus (seeded, bounded):
//  A. an instance generated from the provider schema, once lifted, is judged by the ORIGINAL
//     schema exactly as lowering promises: valid when nothing was dropped, and otherwise invalid
//     only through constraints that Lower reported as dropped;
//  B. every instance generated from the original schema can be expressed in the provider schema
//     (Embed, then accepted by the provider schema) and lifts back unchanged.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "pipeline/generate/generate.h"
#include "pipeline/lowering/lift.h"
#include "pipeline/lowering/lower.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/validator/validator.h"
#include "tests/pipeline/lowering/lowering_corpus.h"

namespace structure::pipeline {
namespace {

constexpr size_t kStride = 7;  // every 7th corpus schema (70 of 490)
constexpr uint64_t kSeeds = 2;

// The validator reads 2020-12: spell OpenAPI's "nullable": true as a type array.
Json NullableToTypeArray(const Json& s) {
  if (s.is_array()) {
    Json out = Json::MakeArray();
    for (const Json& x : s.as_array()) out.push_back(NullableToTypeArray(x));
    return out;
  }
  if (!s.is_object()) return s;
  Json out = Json::MakeObject();
  for (const auto& [k, v] : s.as_object())
    if (k != "nullable" && k != "enum" && k != "const")
      out.set(k, NullableToTypeArray(v));
    else if (k != "nullable")
      out.set(k, v);
  const Json* n = s.find("nullable");
  if (n && n->is_bool() && n->as_bool()) {
    if (const Json* t = s.find("type"); t && t->is_string())
      out.set("type", Json(Json::Array{*t, Json("null")}));
    if (Json* e = out.find("enum")) e->push_back(Json());
    if (out.contains("anyOf")) out["anyOf"].push_back(Json(Json::Object{{"type", Json("null")}}));
  }
  return out;
}

// Equal, except that an optional property the original holds as null may be absent after
// lifting (Lift reads null as "absent" for optional properties; docs/lowering.md).
bool SameModuloAbsentNull(const Json& lifted, const Json& original) {
  if (lifted.is_object() && original.is_object()) {
    for (const auto& [k, v] : original.as_object()) {
      const Json* l = lifted.find(k);
      if (!l) {
        if (!v.is_null()) return false;
        continue;
      }
      if (!SameModuloAbsentNull(*l, v)) return false;
    }
    return lifted.size() <= original.size();
  }
  if (lifted.is_array() && original.is_array()) {
    if (lifted.size() != original.size()) return false;
    for (size_t i = 0; i < lifted.size(); ++i)
      if (!SameModuloAbsentNull(lifted.as_array()[i], original.as_array()[i])) return false;
    return true;
  }
  return lifted == original;
}

// A violation is explained by lowering when its keyword, or a keyword on its schema path, was
// dropped (a subschema moved to JSON text explains everything below it), or when it sits in a
// union branch (the validator reports each failing branch's leaves).
bool Explained(const ValidationError& e, const std::set<std::string>& dropped) {
  if (dropped.count(e.keyword) || dropped.count("$subschema")) return true;
  // propertyNames checks a key through any string keyword (its schema may sit behind a $ref).
  if (dropped.count("propertyNames") &&
      (e.keyword == "enum" || e.keyword == "const" || e.keyword == "pattern" ||
       e.keyword == "minLength" || e.keyword == "maxLength" || e.keyword == "format"))
    return true;
  if (e.schema_path.find("Of/") != std::string::npos) return true;
  size_t pos = 0;
  while ((pos = e.schema_path.find('/', pos)) != std::string::npos) {
    size_t next = e.schema_path.find('/', pos + 1);
    if (dropped.count(e.schema_path.substr(
            pos + 1, next == std::string::npos ? std::string::npos : next - pos - 1)))
      return true;
    pos += 1;
  }
  return false;
}

struct Tally {
  size_t schemas = 0, a_checked = 0, a_valid = 0, a_dropped_only = 0, a_lift_rejected = 0,
         b_checked = 0;
};

TEST(RoundTrip, ProviderInstancesLiftAndOriginalInstancesEmbed) {
  std::vector<testing::CorpusFile> corpus = testing::LoadCorpus();
  ASSERT_GE(corpus.size(), 400u);
  GenerateOptions gen;
  gen.max_depth = 4;
  gen.max_array_items = 2;
  gen.max_nodes = 3000;
  std::printf(
      "| profile | schemas | A: lifted | A: valid | A: invalid only by dropped | A: lift rejected "
      "| B: embedded+lifted |\n|---|---:|---:|---:|---:|---:|---:|\n");
  for (const std::string& name : BuiltinProfileNames()) {
    if (name == "json") continue;
    Profile profile = *FindProfile(name);
    Tally t;
    for (size_t i = 0; i < corpus.size(); i += kStride) {
      const testing::CorpusFile& f = corpus[i];
      if (!f.parsed) continue;
      Result<std::shared_ptr<const Validator>> original = CompileSchema(f.schema);
      if (!original.ok()) continue;
      Result<Lowered> l = Lower(f.schema, profile);
      ASSERT_TRUE(l.ok()) << f.name;
      if (!l->strict) continue;
      Result<std::shared_ptr<const Validator>> provider = CompileSchema(
          name == "gemini-legacy" ? NullableToTypeArray(l->provider_schema) : l->provider_schema);
      ASSERT_TRUE(provider.ok()) << name << " " << f.name << ": " << provider.status().ToString();
      ++t.schemas;
      std::set<std::string> dropped;
      for (const Dropped& d : l->dropped) dropped.insert(d.keyword);
      for (uint64_t seed = 1; seed <= kSeeds; ++seed) {
        // A
        if (Result<Json> x = GenerateInstance(l->provider_schema, seed, gen); x.ok()) {
          Result<Json> y = Lift(*x, l->lift_plan);
          if (!y.ok()) {
            EXPECT_EQ(y.status().code(), Code::kSchemaViolation) << f.name;
            ++t.a_lift_rejected;
          } else {
            ++t.a_checked;
            ValidationResult v = (*original)->Validate(*y, true);
            if (v.valid) {
              ++t.a_valid;
            } else {
              EXPECT_FALSE(dropped.empty())
                  << name << " " << f.name
                  << ": nothing dropped, yet invalid: " << v.errors[0].message << "\n"
                  << ToJson(*y);
              bool explained = false;
              for (const ValidationError& e : v.errors)
                explained = explained || Explained(e, dropped);
              EXPECT_TRUE(explained) << name << " " << f.name << ": " << v.errors[0].message;
              ++t.a_dropped_only;
            }
          }
        }
        // B
        Result<Json> y0 = GenerateInstance(f.schema, seed, gen);
        if (!y0.ok() || !(*original)->Validate(*y0, false).valid) continue;
        Result<Json> e = Embed(*y0, l->lift_plan);
        ASSERT_TRUE(e.ok()) << f.name;
        ValidationResult pv = (*provider)->Validate(*e, true);
        EXPECT_TRUE(pv.valid) << name << " " << f.name
                              << ": embedded instance rejected by the provider schema: "
                              << (pv.errors.empty() ? "" : pv.errors[0].message) << "\n"
                              << ToJson(*e);
        Result<Json> back = Lift(*e, l->lift_plan);
        ASSERT_TRUE(back.ok()) << name << " " << f.name << ": " << back.status().ToString();
        EXPECT_TRUE(SameModuloAbsentNull(*back, *y0)) << name << " " << f.name << "\n"
                                                      << ToJson(*y0) << "\n"
                                                      << ToJson(*back);
        ++t.b_checked;
      }
    }
    std::printf("| %s | %zu | %zu | %zu | %zu | %zu | %zu |\n", name.c_str(), t.schemas,
                t.a_checked, t.a_valid, t.a_dropped_only, t.a_lift_rejected, t.b_checked);
    EXPECT_GT(t.a_checked, 0u);
    EXPECT_GT(t.b_checked, 0u);
  }
}

}  // namespace
}  // namespace structure::pipeline
