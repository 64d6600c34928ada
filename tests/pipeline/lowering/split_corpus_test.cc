// The split table: per strict profile, the share of the real-world corpus handled strictly,
// whole or split into parts, with the parts used and why the rest falls back. Every part is
// confirmed by the independent acceptance checker and compiles in the validator.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "pipeline/lowering/profile.h"
#include "pipeline/lowering/split_plan.h"
#include "pipeline/lowering/strict_check.h"
#include "pipeline/validator/validator.h"
#include "tests/pipeline/lowering/lowering_corpus.h"

namespace structure::pipeline {
namespace {

struct Row {
  size_t whole = 0, split = 0, fallback = 0, failures = 0, cross = 0, as_text = 0;
  std::map<size_t, size_t> parts;  // parts used -> schemas
  std::map<std::string, size_t> reasons;
};

// The limit's words, without its numbers ("optional property count").
std::string Short(const std::string& reason) {
  std::string r = reason.substr(0, reason.find(" exceeds"));
  if (r.find("recursive") != std::string::npos) return "recursive schema";
  size_t digit = r.find_first_of("0123456789");
  r = digit == std::string::npos ? r : r.substr(0, digit);
  while (!r.empty() && r.back() == ' ') r.pop_back();
  return r;
}

std::string SplitFailure(const std::string& reason) {
  size_t at = reason.find("strict parts: ");
  if (at == std::string::npos) return "";
  std::string f = reason.substr(at + 14);
  if (f.rfind("field ", 0) == 0) return "one field alone too big";
  return Short(f);
}

// Every reason the provider would reject what a part sends.
std::vector<std::string> Rejections(const Lowered& l, const Profile& profile) {
  std::vector<std::string> why = CheckProviderSchema(l.provider_schema, profile);
  std::vector<std::string> need = CheckProviderSchema(l.need.schema, profile);
  why.insert(why.end(), need.begin(), need.end());
  if (const Json* tool = l.need.tool.find("input_schema")) {
    std::vector<std::string> t = CheckProviderSchema(*tool, profile);
    why.insert(why.end(), t.begin(), t.end());
  }
  return why;
}

TEST(SplitCorpus, EveryStrictProfileHandlesNinetyFivePercentStrictly) {
  std::vector<testing::CorpusFile> corpus = testing::LoadCorpus();
  ASSERT_GE(corpus.size(), 400u) << "corpus not found under " << STRUCTURE_CORPORA_DIR;
  std::vector<const testing::CorpusFile*> schemas;
  for (const testing::CorpusFile& f : corpus)
    if (f.parsed && CheckIsSchema(f.schema).ok() && CompileSchema(f.schema).ok())
      schemas.push_back(&f);
  std::printf(
      "| profile | schemas | whole | split | fallback | strict %% | parts used | with cross-part "
      "constraints | with a field as JSON text | fallback reasons (split failure) |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---|---:|---:|---|\n");
  for (const std::string& name : BuiltinProfileNames()) {
    Result<Profile> profile = FindProfile(name);
    ASSERT_TRUE(profile.ok());
    if (!profile->enforces) continue;
    if (const char* only = std::getenv("SPLIT_PROFILE"); only && name != only) continue;
    Row row;
    for (const testing::CorpusFile* f : schemas) {
      if (const char* only = std::getenv("LOWERING_ONLY");
          only && f->name.find(only) == std::string::npos)
        continue;
      Result<Lowering> l = LowerOrSplit(f->schema, *profile);
      ASSERT_TRUE(l.ok()) << name << " " << f->name << ": " << l.status().ToString();
      if (!l->is_split()) {
        if (l->whole.strict) {
          ++row.whole;
        } else {
          ++row.fallback;
          std::string split = SplitFailure(l->whole.reason);
          ++row.reasons[Short(l->whole.reason) + (split.empty() ? "" : " (" + split + ")")];
          if (std::getenv("LOWERING_VERBOSE"))
            std::printf("  %s %s: %s\n", name.c_str(), f->name.c_str(), l->whole.reason.c_str());
        }
        continue;
      }
      const SplitPlan& plan = l->split;
      bool ok = true;
      for (const SplitPart& part : plan.parts) {
        std::vector<std::string> why = Rejections(part.lowered, *profile);
        if (!why.empty()) {
          ok = false;
          ADD_FAILURE() << name << " " << f->name << ": part " << part.pointers.front()
                        << " rejected: " << why.front();
        }
        auto compiled = CompileSchema(part.schema);
        if (!compiled.ok()) {
          ok = false;
          ADD_FAILURE() << name << " " << f->name
                        << ": part schema does not compile: " << compiled.status().message();
        }
      }
      if (!ok) {
        ++row.failures;
        continue;
      }
      ++row.split;
      ++row.parts[plan.parts.size()];
      row.cross += plan.cross.size() > 0;
      bool text = false;
      for (const SplitPart& part : plan.parts) text = text || !part.as_text.empty();
      row.as_text += text;
    }
    std::string parts, reasons;
    for (const auto& [k, n] : row.parts)
      parts += (parts.empty() ? "" : ", ") + std::to_string(k) + ": " + std::to_string(n);
    for (const auto& [r, n] : row.reasons)
      reasons += (reasons.empty() ? "" : "; ") + r + " (" + std::to_string(n) + ")";
    size_t total = row.whole + row.split + row.fallback + row.failures;
    double share = total ? 100.0 * (row.whole + row.split) / total : 0;
    std::printf("| %s | %zu | %zu | %zu | %zu | %.1f | %s | %zu | %zu | %s |\n", name.c_str(),
                total, row.whole, row.split, row.fallback, share, parts.c_str(), row.cross,
                row.as_text, reasons.c_str());
    EXPECT_EQ(row.failures, 0u) << name;
    if (!std::getenv("LOWERING_ONLY")) {
      EXPECT_GE(share, 95.0) << name;
    }
  }
}

}  // namespace
}  // namespace structure::pipeline
