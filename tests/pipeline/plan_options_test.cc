#include <gtest/gtest.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "pipeline/schema_stage.h"

namespace structure::pipeline {
namespace {

// One change per field of PlanOptions; PlanOptionsKey does not compile when a field is added,
// and this list is where the new field's change goes.
const std::vector<std::function<void(PlanOptions&)>> kChanges = {
    [](PlanOptions& o) { o.require_provider_strict_output = !o.require_provider_strict_output; },
    [](PlanOptions& o) { o.final_tool = !o.final_tool; },
    [](PlanOptions& o) { o.array_mode = !o.array_mode; },
    [](PlanOptions& o) { o.evidence = config::EvidenceMode::kReport; },
    [](PlanOptions& o) { o.evidence = config::EvidenceMode::kRequire; },
    [](PlanOptions& o) { o.allow_unresolved_refs = !o.allow_unresolved_refs; },
    [](PlanOptions& o) { o.plain_reason = "m has no structured outputs"; },
};

TEST(PlanOptionsTest, EveryFieldChangesTheKey) {
  const PlanOptions base;
  std::set<std::string> keys = {PlanOptionsKey(base)};
  for (size_t i = 0; i < kChanges.size(); ++i) {
    PlanOptions changed = base;
    kChanges[i](changed);
    EXPECT_NE(changed, base) << "change " << i;
    EXPECT_TRUE(keys.insert(PlanOptionsKey(changed)).second)
        << "change " << i << " gives a key another option has: " << PlanOptionsKey(changed);
  }
}

TEST(PlanOptionsTest, EqualOptionsHaveEqualKeys) {
  PlanOptions a;
  a.final_tool = true;
  a.evidence = config::EvidenceMode::kReport;
  PlanOptions b = a;
  EXPECT_EQ(a, b);
  EXPECT_EQ(PlanOptionsKey(a), PlanOptionsKey(b));
  EXPECT_EQ(PlanOptionsKey(a), "strict tool evidence=report");
}

TEST(PlanOptionsTest, EveryCombinationHasItsOwnKey) {
  std::set<std::string> keys;
  int combinations = 0;
  for (int bits = 0; bits < 16; ++bits) {
    for (auto evidence : {config::EvidenceMode::kOff, config::EvidenceMode::kReport,
                          config::EvidenceMode::kRequire}) {
      PlanOptions o;
      o.require_provider_strict_output = bits & 1;
      o.final_tool = bits & 2;
      o.array_mode = bits & 4;
      o.allow_unresolved_refs = bits & 8;
      o.evidence = evidence;
      keys.insert(PlanOptionsKey(o));
      ++combinations;
    }
  }
  EXPECT_EQ(keys.size(), static_cast<size_t>(combinations));
}

TEST(PlanOptionsTest, OptionsForARequestTakeItsSettings) {
  StructureRequest request;
  request.final_tool = true;
  request.array_mode = true;
  config::Settings settings;
  settings.require_provider_strict_output = false;
  settings.evidence = config::EvidenceMode::kRequire;
  settings.allow_unresolved_refs = true;
  PlanOptions o = PlanOptionsFor(request, settings);
  EXPECT_FALSE(o.require_provider_strict_output);
  EXPECT_TRUE(o.final_tool);
  EXPECT_TRUE(o.array_mode);
  EXPECT_EQ(o.evidence, config::EvidenceMode::kRequire);
  EXPECT_TRUE(o.allow_unresolved_refs);
  // The setting is the reason the plan gives for not asking for strict output.
  EXPECT_EQ(o.plain_reason, kStrictOutputNotRequired);
  settings.require_provider_strict_output = true;
  EXPECT_EQ(PlanOptionsFor(request, settings).plain_reason, "");
}

}  // namespace
}  // namespace structure::pipeline
