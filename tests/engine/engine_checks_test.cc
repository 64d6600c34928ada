// Answers judged beyond the schema end to end: a caller's semantic check and the check commands
// of the configuration (per tenant), whose lines feed the re-ask.
#include <gtest/gtest.h>

#include <future>
#include <map>
#include <string>
#include <vector>

#include "tests/engine/engine_test_fixture.h"

namespace structure {
namespace {

using testing::EngineTest;

constexpr const char* kSchema = testing::kTicketSchemaText;

TEST_F(EngineTest, SemanticCheckRejectionReasks) {
  auto req = ParseRequest(*ParseJson(
      std::string(R"({"prompt":"CASE-SEMANTIC Mike did it","schema":)") + kSchema + "}"));
  ASSERT_TRUE(req.ok());
  std::promise<StructureResult> done;
  engine_->Submit(
      *req, [&](StructureResult r) { done.set_value(std::move(r)); },
      [](const Json& d) -> std::vector<std::string> {
        if (d.find("name")->as_string() != "Mike")
          return {"/name: must be the person in the text (was \"" + d.find("name")->as_string() +
                  "\")"};
        return {};
      });
  StructureResult r = done.get_future().get();
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(r.data.find("name")->as_string(), "Mike");
  EXPECT_EQ(r.iterations, 2);
}

// An engine whose calls are checked by `checks` (tenant -> command).
class EngineCheckTest : public EngineTest {
 protected:
  void SetUp() override {}
  void StartWithChecks(std::map<std::string, CheckCommand> checks) {
    EngineOptions o;
    o.config = *Config::Parse(testing::kEngineTestConfig, "engine_test.toml");
    o.checks = std::move(checks);
    StartEngine(std::move(o));
  }
  static std::string CheckMike() {
    return "sh " + std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/engine/check_mike.sh";
  }
};

TEST_F(EngineCheckTest, CheckCommandLinesFeedTheReasonLoopInTheChecksWords) {
  ASSERT_NO_FATAL_FAILURE(StartWithChecks({{"", {CheckMike(), 60000}}}));
  int64_t before = RuleHits("check-reason-seen");
  StructureResult r = RunInline("CASE-SEMANTIC Mike did it");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(r.data.find("name")->as_string(), "Mike");
  EXPECT_EQ(r.iterations, 2);
  // The second call matched only because its last user turn was exactly the check's reason.
  EXPECT_EQ(RuleHits("check-reason-seen"), before + 1);
  // In final-tool mode the first schema-valid call is the one checked (and accepted here).
  StructureResult f = RunInline("CASE-FINAL-TWO who did it", R"(,"finalTool":true)");
  ASSERT_EQ(f.status, Outcome::kOk) << ToJson(ResultToJson(f));
  EXPECT_EQ(ToJson(f.data), R"({"name":"Mike","priority":3})");
}

TEST_F(EngineCheckTest, AFailingOrHangingCheckEndsTheCallCheckFailed) {
  ASSERT_NO_FATAL_FAILURE(StartWithChecks(
      {{"", {"echo 'tracker down' >&2; exit 4", 60000}}, {"slow", {"sleep 30", 300}}}));
  StructureResult failed = RunInline("CASE-OK Mike, priority two");
  ASSERT_EQ(failed.status, Outcome::kError) << ToJson(ResultToJson(failed));
  EXPECT_EQ(failed.error_code, ErrorCode::kCheckFailed);
  EXPECT_EQ(failed.errors.at(0), "check command exited with status 4: tracker down");
  StructureResult hung = RunInline("CASE-OK Mike, priority two", R"(,"tenant":"slow")");
  ASSERT_EQ(hung.status, Outcome::kError) << ToJson(ResultToJson(hung));
  EXPECT_EQ(hung.error_code, ErrorCode::kCheckFailed);
  EXPECT_EQ(hung.errors.at(0), "check command timed out after 300 ms and was killed");
}

TEST_F(EngineCheckTest, ATenantsCheckAppliesToItsCallsOnly) {
  ASSERT_NO_FATAL_FAILURE(StartWithChecks({{"acme", {"echo '/name: acme says no'", 60000}}}));
  EXPECT_EQ(RunInline("CASE-OK Mike, priority two").status, Outcome::kOk);
  StructureResult acme =
      RunInline("CASE-OK Mike, priority two", R"(,"tenant":"acme","maxLoops":1)");
  ASSERT_EQ(acme.status, Outcome::kStale) << ToJson(ResultToJson(acme));
  EXPECT_EQ(acme.errors, std::vector<std::string>{"/name: acme says no"});
}

TEST_F(EngineCheckTest, ManyCallsAreCheckedAtOnce) {
  ASSERT_NO_FATAL_FAILURE(StartWithChecks({{"", {CheckMike(), 60000}}}));
  constexpr int kCalls = 40;
  std::vector<std::future<StructureResult>> results;
  for (int i = 0; i < kCalls; ++i) {
    auto req = ParseRequest(*ParseJson(std::string(R"({"prompt":"CASE-SEMANTIC call )") +
                                       std::to_string(i) + R"(","schema":)" + kSchema + "}"));
    ASSERT_TRUE(req.ok());
    results.push_back(engine_->Submit(std::move(*req)));
  }
  for (auto& f : results) {
    StructureResult r = f.get();
    ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
    EXPECT_EQ(r.iterations, 2);
  }
}

}  // namespace
}  // namespace structure
