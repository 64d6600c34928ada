// `structure schema lower|check` on the generated 369-leaf financial report: for Anthropic,
// lower prints mode "split" with each part's pointers and lowered schema, and check names the
// limit that forced the split; for OpenAI the report is lowered whole.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include "pipeline/lowering/profile.h"
#include "pipeline/lowering/split_plan.h"
#include "structure/json.h"
#include "tests/support/financial_report_schema.h"
#include "tests/support/shell_command.h"

namespace structure {
namespace {

using testing::CommandRun;

// stdout only: the JSON the command prints.
CommandRun Structure(const std::string& args) {
  return testing::RunShell(std::string(STRUCTURE_BINARY) + " " + args + " 2>/dev/null");
}

class SchemaSplitCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    path_ = ::testing::TempDir() + "financial_report_" + std::to_string(getpid()) + ".json";
    std::ofstream(path_) << ToJson(testing::FinancialReportSchema(), true);
  }
  static void TearDownTestSuite() { std::remove(path_.c_str()); }

  static Json Printed(const CommandRun& r) {
    auto j = ParseJson(r.out);
    EXPECT_TRUE(j.ok()) << r.out.substr(0, 400);
    return j.ok() ? *j : Json();
  }

  static inline std::string path_;
};

TEST_F(SchemaSplitCliTest, LowerPrintsEachAnthropicPartWithItsPointers) {
  CommandRun r = Structure("schema lower --provider anthropic " + path_);
  ASSERT_EQ(r.exit_code, 0) << r.out.substr(0, 400);
  Json out = Printed(r);
  EXPECT_EQ(ToJson(*out.find("mode")), "\"split\"");
  auto profile = pipeline::FindProfile("anthropic-strict");
  auto plan = pipeline::LowerOrSplit(testing::FinancialReportSchema(), *profile);
  ASSERT_TRUE(plan.ok() && plan->is_split());
  const Json* parts = out.find("parts");
  ASSERT_NE(parts, nullptr);
  ASSERT_EQ(parts->size(), plan->split.parts.size());
  std::set<std::string> pointers;
  for (size_t i = 0; i < parts->size(); ++i) {
    const Json& part = parts->as_array()[i];
    const Json* list = part.find("pointers");
    ASSERT_NE(list, nullptr);
    ASSERT_EQ(list->size(), plan->split.parts[i].pointers.size());
    for (const Json& p : list->as_array()) EXPECT_TRUE(pointers.insert(p.as_string()).second);
    ASSERT_NE(part.find("providerSchema"), nullptr);
    EXPECT_NE(part.find("providerSchema")->find("properties"), nullptr);
  }
  EXPECT_TRUE(pointers.count("/company"));
  EXPECT_TRUE(pointers.count("/segments"));
}

TEST_F(SchemaSplitCliTest, CheckSaysWhichLimitForcedTheSplit) {
  CommandRun r = Structure("schema check --provider anthropic " + path_);
  EXPECT_EQ(r.exit_code, 1);  // Anthropic would refuse the report as it is
  Json out = Printed(r);
  const Json* engine = out.find("engine");
  ASSERT_NE(engine, nullptr) << r.out;
  EXPECT_EQ(ToJson(*engine->find("mode")), "\"split\"");
  EXPECT_EQ(engine->find("forcedBy")->as_string(),
            "optional property count 399 exceeds the provider limit of 24");
  EXPECT_GE(engine->find("parts")->as_int(), 2);
}

TEST_F(SchemaSplitCliTest, OpenAiLowersTheReportWhole) {
  CommandRun lower = Structure("schema lower --provider openai " + path_);
  EXPECT_EQ(lower.exit_code, 0);
  EXPECT_EQ(ToJson(*Printed(lower).find("mode")), "\"strict\"");
  CommandRun check = Structure("schema check --provider openai " + path_);
  Json checked = Printed(check);
  const Json* engine = checked.find("engine");
  ASSERT_NE(engine, nullptr) << check.out;
  EXPECT_EQ(ToJson(*engine->find("mode")), "\"strict\"");
}

}  // namespace
}  // namespace structure
