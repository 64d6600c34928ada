// Thinking models end to end through `structure sim` (issue 16 acceptance): thinking on and off
// per provider, reasoning tokens in the result, a final-tool correction that must replay Gemini's
// thought signature and Anthropic's thinking block, and an output cap used up by thinking.
#include <gtest/gtest.h>

#include "engine/engine.h"
#include "tests/support/engine_fixture.h"
#include "tests/support/sim_process.h"

namespace structure {
namespace {

using pipeline::Outcome;
using pipeline::StructureResult;

constexpr const char* kConfig = R"(
[providers.openai]
kind = "openai"
model = "gpt-4o-test"
[providers.openai.models."o3"]
reasoning_effort = "high"
[providers.openai.models."o3-tight"]
reasoning_effort = "high"
max_output_tokens = 512

[providers.anthropic]
kind = "anthropic"
model = "claude-test"
[providers.anthropic.models."claude-thinking"]
thinking_budget = 2048
[providers.anthropic.models."claude-adaptive"]
reasoning_effort = "low"

[providers.gemini]
kind = "gemini"
model = "gemini-2.0-test"
[providers.gemini.models."gemini-2.5-flash-off"]
reasoning_effort = "none"

[providers.legacy]
kind = "gemini"
model = "gemini-2.0-test"
profile = "gemini-legacy"

[providers.ollama]
kind = "ollama"
model = "llama-test"
[providers.ollama.models."qwen-think"]
reasoning_effort = "high"

[providers.openrouter]
kind = "openrouter"
model = "router/test"
[providers.openrouter.models."router/thinking"]
thinking_budget = 800

[aliases]
"default:fast" = "openai"
"default:analyze" = "openai"
)";

constexpr const char* kSchema = R"({"type":"object","properties":{
  "name":{"type":"string"},"priority":{"enum":["low","medium","high"]}},
  "required":["name","priority"],"additionalProperties":false})";

class EngineThinkingTest : public testing::EngineFixture<EngineThinkingTest> {
 public:
  static std::unique_ptr<testing::ChildProcess> StartSuiteSim(std::string* error) {
    return testing::StartSim(STRUCTURE_BINARY,
                             {"--scenario", std::string(STRUCTURE_SOURCE_DIR) +
                                                "/tests/data/engine/thinking_scenario.json"},
                             error);
  }

 protected:
  void SetUp() override {
    EngineOptions o;
    auto cfg = config::ParseConfig(kConfig, "engine_thinking_test.toml");
    ASSERT_TRUE(cfg.ok()) << cfg.status().message();
    o.config = *cfg;
    StartEngine(std::move(o));
  }

  StructureResult Run(const std::string& prompt, const std::string& model,
                      const std::string& extra = "") {
    auto req = pipeline::ParseRequest(*ParseJson(R"({"prompt":")" + prompt + R"(","model":")" +
                                                 model + R"(","schema":)" + kSchema + extra + "}"));
    EXPECT_TRUE(req.ok()) << req.status().message();
    return engine_->Run(*req);
  }
};

std::string Show(const StructureResult& r) { return ToJson(pipeline::ResultToJson(r)); }

struct Case {
  const char* model;
  int64_t reasoning_tokens;  // what the simulator thinks and reports for this model
};

TEST_F(EngineThinkingTest, ThinkingOnAndOffPerProvider) {
  const Case cases[] = {
      {"openai/gpt-4o-test", 0},
      {"openai/o3", 4096},
      {"openai/gpt-5-mini", 1024},  // thinks by default
      {"anthropic/claude-test", 0},
      {"anthropic/claude-thinking", 1024},
      {"anthropic/claude-adaptive", 256},
      {"gemini/gemini-2.0-test", 0},
      {"gemini/gemini-3-pro-test", 1024},  // by default
      {"gemini/gemini-2.5-flash-off", 0},
      {"ollama/llama-test", 0},
      {"ollama/qwen-think", 0},
      {"openrouter/router/test", 0},
      {"openrouter/router/thinking", 800},
  };
  for (const Case& c : cases) {
    StructureResult r = Run("CASE-GENERATE any record", c.model);
    ASSERT_EQ(r.status, Outcome::kOk) << c.model << ": " << Show(r);
    EXPECT_EQ(r.usage.reasoning_tokens, c.reasoning_tokens) << c.model << ": " << Show(r);
    EXPECT_GE(r.usage.output_tokens, r.usage.reasoning_tokens) << c.model;
  }
}

TEST_F(EngineThinkingTest, FinalToolCorrectionReplaysTheSignaturesAndThinking) {
  for (const char* model :
       {"gemini/gemini-3-pro-test", "anthropic/claude-thinking", "anthropic/claude-adaptive",
        "openai/o3", "gemini/gemini-2.0-test", "legacy/gemini-3-pro-test"}) {
    StructureResult r = Run("CASE-FT-FIX who did it", model, R"(,"finalTool":true)");
    ASSERT_EQ(r.status, Outcome::kOk) << model << ": " << Show(r);
    EXPECT_EQ(r.data.find("priority")->as_string(), "high") << model;
    EXPECT_EQ(r.iterations, 2) << model;
  }
}

// Item 4 through the simulator: reasoning tokens count against tokenBudget. The first answer
// needs a correction; without thinking the budget allows it, with o3's 4096 reasoning tokens it
// is spent after the first call.
TEST_F(EngineThinkingTest, ReasoningTokensCountAgainstTheTokenBudget) {
  const char* budget = R"(,"finalTool":true,"tokenBudget":3000)";
  StructureResult plain = Run("CASE-FT-FIX who did it", "openai/gpt-4o-test", budget);
  ASSERT_EQ(plain.status, Outcome::kOk) << Show(plain);
  EXPECT_EQ(plain.iterations, 2);
  StructureResult thinking = Run("CASE-FT-FIX who did it", "openai/o3", budget);
  ASSERT_EQ(thinking.status, Outcome::kStale) << Show(thinking);
  EXPECT_EQ(thinking.iterations, 1);
  EXPECT_EQ(thinking.usage.reasoning_tokens, 4096);
  ASSERT_FALSE(thinking.errors.empty());
  EXPECT_NE(thinking.errors.back().find("token budget exhausted"), std::string::npos)
      << Show(thinking);
  EXPECT_NE(thinking.errors.back().find("of 3000 tokens"), std::string::npos) << Show(thinking);
}

TEST_F(EngineThinkingTest, ThinkingThatUsesTheWholeCapIsOutputCapExhausted) {
  StructureResult r = Run("CASE-GENERATE any record", "openai/o3-tight");
  ASSERT_EQ(r.status, Outcome::kError) << Show(r);
  EXPECT_EQ(r.error_code, "output_cap_exhausted");
  EXPECT_EQ(r.iterations, 1);
  EXPECT_EQ(r.usage.reasoning_tokens, 512);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_NE(r.errors[0].find("output cap of 512 tokens"), std::string::npos) << r.errors[0];
  EXPECT_NE(r.errors[0].find("providers.openai.models.\"o3-tight\".max_output_tokens (now 512)"),
            std::string::npos)
      << r.errors[0];
}

}  // namespace
}  // namespace structure
