// The corpus report: per profile, the share of real-world schemas lowered to strict, to
// fallback, and failures (which must be 0). Every strict output is confirmed by the independent
// acceptance checker.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "pipeline/lowering/lower.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/lowering/strict_check.h"
#include "pipeline/validator/validator.h"
#include "tests/pipeline/lowering/lowering_corpus.h"

namespace structure::pipeline {
namespace {

struct Row {
  size_t strict = 0, fallback = 0, failures = 0;
  std::map<std::string, size_t> reasons;
};

std::string Short(const std::string& reason) {
  std::string r = reason.substr(0, reason.find(" exceeds"));
  if (r.find("recursive") != std::string::npos) return "recursive schema";
  size_t digit = r.find_first_of("0123456789");
  return digit == std::string::npos ? r : r.substr(0, digit);
}

TEST(LowerCorpus, EveryProfileLowersTheCorpusWithoutFailures) {
  std::vector<testing::CorpusFile> corpus = testing::LoadCorpus();
  ASSERT_GE(corpus.size(), 400u);
  size_t valid = 0, not_json = 0, not_schema_ours = 0, not_schema_validator = 0;
  std::vector<const testing::CorpusFile*> schemas;
  for (const testing::CorpusFile& f : corpus) {
    if (!f.parsed) {
      ++not_json;
      continue;
    }
    bool ours = CheckIsSchema(f.schema).ok();
    bool theirs = std::getenv("LOWERING_NO_VALIDATOR") ? true : CompileSchema(f.schema).ok();
    if (!ours) ++not_schema_ours;
    if (!theirs) ++not_schema_validator;
    if (ours) schemas.push_back(&f);
    if (ours && theirs) ++valid;
  }
  std::printf(
      "corpus: %zu files, %zu not JSON, %zu not a schema (structural check), %zu rejected by the "
      "validator, %zu valid for both\n",
      corpus.size(), not_json, not_schema_ours, not_schema_validator, valid);
  std::printf(
      "| profile | schemas | strict | fallback | failures | strict %% | top fallback reasons |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---|\n");
  for (const std::string& name : BuiltinProfileNames()) {
    Result<Profile> profile = FindProfile(name);
    ASSERT_TRUE(profile.ok());
    Row row;
    for (const testing::CorpusFile* f : schemas) {
      if (const char* only = std::getenv("LOWERING_ONLY");
          only && f->name.find(only) == std::string::npos)
        continue;
      auto t0 = std::chrono::steady_clock::now();
      Result<Lowered> l = Lower(f->schema, *profile);
      if (std::getenv("LOWERING_TIMING")) {
        double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                        .count();
        if (ms > 50) std::printf("  slow %s %s %.0f ms\n", name.c_str(), f->name.c_str(), ms);
      }
      if (!l.ok()) {
        ++row.failures;
        ADD_FAILURE() << name << " " << f->name << ": " << l.status().ToString();
        continue;
      }
      if (!l->strict) {
        ++row.fallback;
        ++row.reasons[Short(l->reason)];
        if (std::getenv("LOWERING_VERBOSE"))
          std::printf("  %s %s: %s\n", name.c_str(), f->name.c_str(), l->reason.c_str());
        continue;
      }
      std::vector<std::string> why = CheckProviderSchema(l->provider_schema, *profile);
      std::vector<std::string> why_need = CheckProviderSchema(l->need.schema, *profile);
      why.insert(why.end(), why_need.begin(), why_need.end());
      if (l->need.tool.is_object()) {
        std::vector<std::string> t =
            CheckProviderSchema(*l->need.tool.find("input_schema"), *profile);
        why.insert(why.end(), t.begin(), t.end());
      }
      if (!why.empty()) {
        ++row.failures;
        ADD_FAILURE() << name << " " << f->name << ": strict output rejected: " << why[0]
                      << (why.size() > 1 ? " (+" + std::to_string(why.size() - 1) + " more)" : "");
        continue;
      }
      ++row.strict;
    }
    std::string reasons;
    for (const auto& [r, n] : row.reasons)
      reasons += (reasons.empty() ? "" : "; ") + r + " (" + std::to_string(n) + ")";
    double share = 100.0 * row.strict / schemas.size();
    std::printf("| %s | %zu | %zu | %zu | %zu | %.1f | %s |\n", name.c_str(), schemas.size(),
                row.strict, row.fallback, row.failures, share, reasons.c_str());
    EXPECT_EQ(row.failures, 0u) << name;
    if (name == "openai-strict" || name == "gemini") {
      EXPECT_GE(share, 97.0) << name;
    }
  }
}

}  // namespace
}  // namespace structure::pipeline
