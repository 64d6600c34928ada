// The generated 369-leaf financial report (tests/support/financial_report_schema.h) end to end
// through `structure sim` on OpenAI, Anthropic and Gemini: each ends ok, asked whole or in as
// many parts as the lowering planned, and the merged answer validates against the ORIGINAL
// schema. Each call prints its parts, calls and tokens, a first document (cold cache) and a
// second one with the same schema (the prefixes the first left in the provider's cache).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "pipeline/lowering/measure.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/lowering/split_plan.h"
#include "pipeline/validator/validator.h"
#include "structure/engine.h"
#include "tests/support/engine_fixture.h"
#include "tests/support/financial_report_schema.h"
#include "tests/support/sim_process.h"

namespace structure {
namespace {

constexpr const char* kConfig = R"(
[providers.openai]
kind = "openai"
model = "gpt-4o"
[providers.anthropic]
kind = "anthropic"
model = "claude-sonnet-4-5"
[providers.gemini]
kind = "gemini"
model = "gemini-2.5-flash"
[aliases]
"default:fast" = "openai"
"default:analyze" = "openai"
)";

// An annual report's text of about 4 000 tokens, the same for a given company name.
std::string ReportText(const std::string& company) {
  std::string text = company + " plc, annual report for the fiscal year ended 31 December 2025. ";
  text += "Figures in EUR millions, IFRS, audited by Example Audit LLP (unqualified opinion). ";
  const char* lines[] = {"revenue",
                         "cost of revenue",
                         "gross profit",
                         "operating income",
                         "net income",
                         "total assets",
                         "total liabilities",
                         "total equity",
                         "net cash from operating activities",
                         "capital expenditure"};
  for (int year = 2025; year >= 2024; --year)
    for (int i = 0; i < 10; ++i)
      for (int seg = 0; seg < 8; ++seg)
        text += "In " + std::to_string(year) + " segment " + std::to_string(seg) + " reported " +
                lines[i] + " of " + std::to_string(100 + 37 * i + 11 * seg + year % 7) + "." +
                std::to_string(seg) + " million. ";
  return text;
}

struct Cost {
  int parts = 0;
  size_t calls = 0;
  Usage usage;
};

class EngineSplitTest : public testing::EngineFixture<EngineSplitTest> {
 public:
  // One model, gpt-4o-mini, serves a smaller grammar than the report's whole strict schema
  // needs (as a model whose "too large" limit is unpublished): the learning path.
  static std::unique_ptr<testing::ChildProcess> StartSuiteSim(std::string* error) {
    std::string path =
        ::testing::TempDir() + "engine_split_scenario_" + std::to_string(getpid()) + ".json";
    std::ofstream(path) << R"({"grammar_budgets":{"gpt-4o-mini":)" << WholeGrammar() * 7 / 10
                        << "}}";
    return testing::StartSim(STRUCTURE_BINARY, {"--scenario", path}, error);
  }

  // The grammar size of the report's whole strict schema on OpenAI, as the simulator measures.
  static size_t WholeGrammar() {
    auto p = pipeline::FindProfile("openai-strict");
    if (!p.ok()) return 0;
    auto l = pipeline::LowerOrSplit(testing::FinancialReportSchema(), *p);
    return l.ok() ? pipeline::MeasureSchema(l->whole.need.schema).grammar : 0;
  }

 protected:
  void SetUp() override { StartEngineWithConfig(kConfig, "engine_split_test.toml"); }

  // One call on the report; checks the answer against the original schema and returns its cost.
  Cost Ask(const std::string& model, const std::string& company, const char* want_mode,
           int want_parts) {
    Json body = Json::MakeObject();
    body.set("prompt", Json(ReportText(company)));
    body.set("model", Json(model));
    body.set("schema", testing::FinancialReportSchema());
    body.set("trace", Json(true));
    auto req = ParseRequest(body);
    EXPECT_TRUE(req.ok()) << req.status().message();
    if (!req.ok()) return {};
    StructureResult r = engine_->Run(*req);
    std::string shown = r.status == Outcome::kOk ? "" : ToJson(ResultToJson(r));
    EXPECT_EQ(r.status, Outcome::kOk) << model << ": " << shown;
    EXPECT_EQ(r.mode, want_mode) << model << ": " << r.mode_reason;
    EXPECT_EQ(r.parts, want_parts) << model;
    auto validator = pipeline::CompileSchema(testing::FinancialReportSchema());
    EXPECT_TRUE(validator.ok());
    if (validator.ok() && r.status == Outcome::kOk) {
      pipeline::ValidationResult v = (*validator)->Validate(r.data);
      EXPECT_TRUE(v.valid) << model << ": " << (v.errors.empty() ? "" : v.errors[0].message);
    }
    const Json* rounds = r.trace.find("rounds");
    Cost cost{r.parts, rounds ? rounds->size() : 0, r.usage};
    std::printf(
        "%-28s %-8s mode %-8s parts %2d calls %2zu input %6lld (cached %6lld, written %5lld) "
        "output %5lld\n",
        model.c_str(), company.c_str(), r.mode.c_str(), r.parts, cost.calls,
        static_cast<long long>(r.usage.input_tokens),
        static_cast<long long>(r.usage.cached_input_tokens),
        static_cast<long long>(r.usage.cache_write_tokens),
        static_cast<long long>(r.usage.output_tokens));
    return cost;
  }
};

// The parts the lowering plans for the report on `profile` (0: asked whole).
int PlannedParts(const char* profile) {
  auto p = pipeline::FindProfile(profile);
  EXPECT_TRUE(p.ok());
  auto l = pipeline::LowerOrSplit(testing::FinancialReportSchema(), *p);
  EXPECT_TRUE(l.ok());
  return l.ok() ? static_cast<int>(l->split.parts.size()) : -1;
}

TEST_F(EngineSplitTest, OpenAiTakesTheReportWholeAndStrict) {
  ASSERT_EQ(PlannedParts("openai-strict"), 0);
  Cost cold = Ask("openai/gpt-4o", "Acme", "strict", 0);
  EXPECT_EQ(cold.calls, 1u);
  Cost warm = Ask("openai/gpt-4o", "Borealis", "strict", 0);
  EXPECT_GT(warm.usage.cached_input_tokens, 0);  // the schema and system prompt, from Acme's
}

TEST_F(EngineSplitTest, GeminiTakesTheReportWholeAndStrict) {
  ASSERT_EQ(PlannedParts("gemini"), 0);
  Cost cold = Ask("gemini/gemini-2.5-flash", "Acme", "strict", 0);
  EXPECT_EQ(cold.calls, 1u);
  Ask("gemini/gemini-2.5-flash", "Borealis", "strict", 0);
}

TEST_F(EngineSplitTest, AnthropicAsksTheReportInItsPlannedPartsAtOnceAndProvesTheMerge) {
  int k = PlannedParts("anthropic-strict");
  ASSERT_GE(k, 2);
  Cost cold = Ask("anthropic/claude-sonnet-4-5", "Acme", "split", k);
  EXPECT_EQ(cold.calls, static_cast<size_t>(k));  // one round: every part once, no re-ask
  Cost warm = Ask("anthropic/claude-sonnet-4-5", "Borealis", "split", k);
  EXPECT_EQ(warm.calls, static_cast<size_t>(k));
  // Each part's tools and system prompt, marked and written by the first document, are read
  // from the cache by the second.
  EXPECT_GT(cold.usage.cache_write_tokens, 0);
  EXPECT_EQ(warm.usage.cached_input_tokens, cold.usage.cache_write_tokens);
}

// The simulator refuses the whole report for gpt-4o-mini with OpenAI's own "too large" body;
// the engine learns the model's ceiling, splits, asks the parts at once and ends ok; a second
// call sends the split at once (no refused whole request first).
TEST_F(EngineSplitTest, ATooLargeRefusalIsLearnedAndTheNextCallSendsTheSplitAtOnce) {
  const size_t whole = WholeGrammar();
  ASSERT_GT(whole, 0u);
  Json body = Json::MakeObject();
  auto ask = [&](const std::string& company) {
    body.set("prompt", Json(ReportText(company)));
    body.set("model", Json("openai/gpt-4o-mini"));
    body.set("schema", testing::FinancialReportSchema());
    body.set("trace", Json(true));
    auto req = ParseRequest(body);
    EXPECT_TRUE(req.ok()) << req.status().message();
    return req.ok() ? engine_->Run(*req) : StructureResult{};
  };
  auto calls = [](const StructureResult& r) {
    const Json* rounds = r.trace.find("rounds");
    return rounds ? rounds->size() : 0;
  };
  StructureResult first = ask("Acme");
  ASSERT_EQ(first.status, Outcome::kOk) << ToJson(ResultToJson(first));
  EXPECT_EQ(first.mode, "split") << first.mode_reason;
  ASSERT_GE(first.parts, 2);
  StructureResult second = ask("Borealis");
  ASSERT_EQ(second.status, Outcome::kOk) << ToJson(ResultToJson(second));
  EXPECT_EQ(second.mode, "split") << second.mode_reason;
  EXPECT_EQ(second.parts, first.parts);
  EXPECT_EQ(calls(second), static_cast<size_t>(second.parts));  // every part once, nothing refused
  EXPECT_GT(calls(first), calls(second)) << "the first call's refused whole request";
  std::printf("gpt-4o-mini (grammar budget %zu of %zu): parts %d, calls %zu then %zu\n",
              whole * 7 / 10, whole, first.parts, calls(first), calls(second));
}

}  // namespace
}  // namespace structure
