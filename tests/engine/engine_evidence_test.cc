// Evidence end to end (issue 20): the engine against `structure sim`, whose generated answers
// quote the prompt (and, with --ungrounded-rate 1, invent one value each), on every provider
// form; a scripted reply with an invented value is caught and re-asked.
#include <gtest/gtest.h>

#include "engine/engine.h"
#include "tests/support/engine_fixture.h"
#include "tests/support/sim_process.h"
#include "tests/support/ticket_schema.h"

namespace structure {
namespace {

using pipeline::Outcome;
using pipeline::StructureResult;

constexpr const char* kConfig = R"(
[providers.openai]
kind = "openai"
model = "gpt-test"
[providers.anthropic]
kind = "anthropic"
model = "claude-test"
[providers.gemini]
kind = "gemini"
model = "gemini-test"
[providers.ollama]
kind = "ollama"
model = "llama-test"
[aliases]
"default:fast" = "openai"
"default:analyze" = "openai"
)";

EngineOptions Options() {
  EngineOptions o;
  auto cfg = config::ParseConfig(kConfig, "engine_evidence_test.toml");
  EXPECT_TRUE(cfg.ok()) << cfg.status().message();
  if (cfg.ok()) o.config = *cfg;
  return o;
}

StructureResult RunOne(Engine& engine, const std::string& provider, const std::string& mode,
                       const std::string& prompt, int max_loops = 3, bool strict = true) {
  std::string body = R"({"prompt":)" + ToJson(Json(prompt)) + R"(,"model":")" + provider +
                     R"(","evidence":")" + mode + R"(","maxLoops":)" + std::to_string(max_loops) +
                     R"(,"requireProviderStrictOutput":)" + (strict ? "true" : "false") +
                     R"(,"schema":)" + testing::kTicketSchemaText + "}";
  auto req = pipeline::ParseRequest(*ParseJson(body));
  EXPECT_TRUE(req.ok()) << req.status().message();
  return engine.Run(*req);
}

std::string Errors(const StructureResult& r) {
  std::string s = r.need;
  for (const auto& e : r.errors) s += " | " + e;
  return s;
}

class EngineEvidenceTest : public testing::EngineFixture<EngineEvidenceTest> {
 public:
  static std::unique_ptr<testing::ChildProcess> StartSuiteSim(std::string* error) {
    return testing::StartSim(
        STRUCTURE_BINARY,
        {"--scenario", std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/evidence/scenario.json"},
        error);
  }

 protected:
  void SetUp() override { StartEngine(Options()); }
};

TEST_F(EngineEvidenceTest, ReportOnEveryProviderFormAndTheFallbackPath) {
  for (const char* provider : {"openai", "anthropic", "gemini", "ollama"}) {
    for (bool strict : {true, false}) {
      SCOPED_TRACE(std::string(provider) + (strict ? " strict" : " fallback"));
      // Plain JSON mode shows the form only in the prompt, which the simulator does not read: the
      // fallback answer is scripted (tests/data/evidence/scenario.json).
      std::string prompt =
          strict ? "Mike broke the build, priority 5" : "EV-2: Mike broke the build, priority 5";
      StructureResult r = RunOne(*engine_, provider, "report", prompt, 1, strict);
      ASSERT_EQ(r.status, Outcome::kOk) << Errors(r);
      EXPECT_EQ(r.mode, strict ? "strict" : "fallback");
      EXPECT_EQ(ToJson(r.ungrounded), "[]");
      const Json* priority = r.evidence.find("/priority");
      ASSERT_NE(priority, nullptr) << ToJson(r.evidence);
      EXPECT_EQ(priority->find("quote")->as_string(), "5");
      EXPECT_EQ(priority->find("byteStart")->as_int(), static_cast<int64_t>(prompt.find('5')));
      EXPECT_NE(r.evidence.find("/name"), nullptr);
      EXPECT_GT(r.usage.output_tokens, 0);
    }
  }
}

TEST_F(EngineEvidenceTest, AnInventedValueIsCaughtAndReasked) {
  StructureResult r =
      RunOne(*engine_, "openai", "require", "EV-1: Mike broke the build, priority 5");
  ASSERT_EQ(r.status, Outcome::kOk) << Errors(r);
  EXPECT_EQ(r.iterations, 2);
  EXPECT_EQ(ToJson(r.data), R"({"name":"Mike","priority":5})");
  EXPECT_EQ(ToJson(r.ungrounded), "[]");
}

TEST_F(EngineEvidenceTest, ReportListsTheInventedValueAndKeepsTheStatus) {
  StructureResult r =
      RunOne(*engine_, "openai", "report", "EV-1: Mike broke the build, priority 5");
  ASSERT_EQ(r.status, Outcome::kOk) << Errors(r);
  EXPECT_EQ(r.iterations, 1);
  EXPECT_EQ(ToJson(r.ungrounded), R"(["/name"])");
}

class EngineUngroundedTest : public testing::EngineFixture<EngineUngroundedTest> {
 public:
  static std::unique_ptr<testing::ChildProcess> StartSuiteSim(std::string* error) {
    return testing::StartSim(STRUCTURE_BINARY, {"--ungrounded-rate", "1", "--seed", "3"}, error);
  }

 protected:
  void SetUp() override { StartEngine(Options()); }
};

TEST_F(EngineUngroundedTest, RequireEndsNeedMoreInputWhenARequiredValueStaysUngrounded) {
  for (const char* provider : {"openai", "anthropic", "gemini", "ollama"}) {
    SCOPED_TRACE(provider);
    StructureResult r =
        RunOne(*engine_, provider, "require", "Mike broke the build, priority 5", 2);
    ASSERT_EQ(r.status, Outcome::kNeedMoreInput) << Errors(r);
    EXPECT_EQ(r.iterations, 2);
    EXPECT_EQ(r.need.rfind("the input does not state /", 0), 0u) << r.need;
    EXPECT_NE(r.need.find("not found in the text"), std::string::npos) << r.need;
    EXPECT_EQ(r.ungrounded.size(), 1u);
  }
}

}  // namespace
}  // namespace structure
