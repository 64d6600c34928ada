// Thinking models end to end through `structure sim`: thinking on and off
// per provider, reasoning tokens in the result, a final-tool correction that must replay Gemini's
// thought signature and Anthropic's thinking block, and an output cap used up by thinking.
#include <gtest/gtest.h>

#include "structure/engine.h"
#include "tests/support/engine_fixture.h"
#include "tests/support/sim_process.h"

namespace structure {
namespace {

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
[providers.anthropic.models."claude-sonnet-4-5"]
thinking_budget = 2048
[providers.anthropic.models."claude-sonnet-4-6"]
reasoning_effort = "low"

[providers.gemini]
kind = "gemini"
model = "gemini-2.0-flash"
[providers.gemini.models."gemini-2.5-flash-off"]
reasoning_effort = "none"

[providers.legacy]
kind = "gemini"
model = "gemini-2.0-flash"
profile = "gemini-legacy"

[providers.ollama]
kind = "ollama"
model = "llama-test"
[providers.ollama.models."qwen3-think"]
reasoning_effort = "high"

[providers.openrouter]
kind = "openrouter"
model = "router/test"
[providers.openrouter.models."router/thinking"]
thinking_budget = 800

[providers.ollama.models."gpt-oss:20b"]
reasoning_effort = "high"
[providers.ollama.models."qwen3:8b"]
reasoning_effort = "low"
[providers.gemini.models."gemini-2.5-pro"]
reasoning_effort = "high"
[providers.gemini.models."gemini-2.5-flash-lite"]
reasoning_effort = "low"
[providers.gemini.models."gemini-3-flash-preview"]
reasoning_effort = "minimal"
[providers.gemini.models."gemini-3-pro-preview"]
reasoning_effort = "low"
[providers.anthropic.models."claude-haiku-4-5"]
reasoning_effort = "medium"
[providers.anthropic.models."claude-opus-4-1"]
thinking_budget = 4096
[providers.anthropic.models."claude-opus-4-5"]
reasoning_effort = "high"
[providers.anthropic.models."claude-opus-4-7"]
reasoning_effort = "xhigh"
[providers.openai.models."o1"]
reasoning_effort = "low"
[providers.openai.models."gpt-5.1"]
reasoning_effort = "none"
[providers.openrouter.models."openai/o3-mini"]
reasoning_effort = "medium"
[providers.openrouter.models."anthropic/claude-sonnet-4.5"]
reasoning_effort = "high"

# Provider-level setting whose model is chosen per call: checked when the request is built.
[providers.minimal]
kind = "gemini"
model = "gemini-3-flash-preview"
reasoning_effort = "minimal"

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
  void SetUp() override { StartEngineWithConfig(kConfig, "engine_thinking_test.toml"); }

  StructureResult Run(const std::string& prompt, const std::string& model,
                      const std::string& extra = "") {
    auto req = ParseRequest(*ParseJson(R"({"prompt":")" + prompt + R"(","model":")" + model +
                                       R"(","schema":)" + kSchema + extra + "}"));
    EXPECT_TRUE(req.ok()) << req.status().message();
    return engine_->Run(*req);
  }
};

std::string Show(const StructureResult& r) { return ToJson(ResultToJson(r)); }

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
      // Thinks (1024 tokens), but the 4.5 releases do not count them in their replies.
      {"anthropic/claude-sonnet-4-5", 0},
      {"anthropic/claude-sonnet-4-6", 256},
      {"gemini/gemini-2.0-flash", 0},
      {"gemini/gemini-3-pro-test", 1024},  // by default
      {"gemini/gemini-2.5-flash-off", 0},
      {"ollama/llama-test", 0},
      {"ollama/qwen3-think", 0},
      {"openrouter/router/test", 0},
      {"openrouter/router/thinking", 800},
  };
  for (const Case& c : cases) {
    StructureResult r = Run("CASE-GENERATE any record", c.model);
    ASSERT_EQ(r.status, Outcome::kOk) << c.model << ": " << Show(r);
    EXPECT_EQ(r.usage.reasoning_tokens, c.reasoning_tokens) << c.model << ": " << Show(r);
    EXPECT_GE(r.usage.output_tokens, r.usage.reasoning_tokens) << c.model;
  }
  StructureResult unreported = Run("CASE-GENERATE any record", "anthropic/claude-sonnet-4-5");
  EXPECT_TRUE(unreported.usage.reasoning_unreported) << Show(unreported);
}

TEST_F(EngineThinkingTest, FinalToolCorrectionReplaysTheSignaturesAndThinking) {
  for (const char* model :
       {"gemini/gemini-3-pro-test", "anthropic/claude-sonnet-4-5", "anthropic/claude-sonnet-4-6",
        "openai/o3", "gemini/gemini-2.0-flash", "legacy/gemini-3-pro-test"}) {
    StructureResult r = Run("CASE-FT-FIX who did it", model, R"(,"finalTool":true)");
    ASSERT_EQ(r.status, Outcome::kOk) << model << ": " << Show(r);
    EXPECT_EQ(r.data.find("priority")->as_string(), "high") << model;
    EXPECT_EQ(r.iterations, 2) << model;
  }
}

// Today's families end to end: each gets the thinking form its family takes from the model
// table, which the simulator checks against the same table and answers with the provider's 400
// when a request carries what the model does not take. Before, o-series got
// parallel_tool_calls in final-tool mode, Gemini 2.5 a thinkingLevel, Sonnet 4.5 adaptive
// thinking, Opus 4.7 a budget and Gemini 3 Pro MINIMAL: each a 400.
TEST_F(EngineThinkingTest, EachFamilyGetsWhatItTakesThroughTheSimulator) {
  struct Family {
    const char* model;
    const char* request;  // extra request members
  };
  const Family families[] = {
      {"openai/o1", R"(,"finalTool":true)"},
      {"openai/o3-mini", R"(,"finalTool":true)"},
      {"openai/o4-mini", R"(,"finalTool":true)"},
      {"openai/gpt-4.1", R"(,"finalTool":true)"},
      {"openai/gpt-5-mini", R"(,"finalTool":true)"},
      {"openai/gpt-5.1", ""},
      {"anthropic/claude-haiku-4-5", ""},
      {"anthropic/claude-opus-4-1", ""},
      {"anthropic/claude-opus-4-5", ""},
      {"anthropic/claude-opus-4-7", ""},
      {"anthropic/claude-3-5-haiku-20241022", ""},
      {"gemini/gemini-2.5-pro", ""},
      {"gemini/gemini-2.5-flash-lite", ""},
      {"gemini/gemini-3-pro-preview", ""},
      {"gemini/gemini-3-flash-preview", ""},
      {"openrouter/openai/o3-mini", R"(,"finalTool":true)"},
      {"openrouter/anthropic/claude-sonnet-4.5", ""},
      {"ollama/gpt-oss:20b", ""},
      {"ollama/qwen3:8b", ""},
  };
  for (const Family& f : families) {
    StructureResult r = Run("CASE-GENERATE any record", f.model, f.request);
    EXPECT_EQ(r.status, Outcome::kOk) << f.model << ": " << Show(r);
  }
}

// A level a model does not take is refused before any call, naming the model and what it takes.
TEST_F(EngineThinkingTest, ALevelTheModelDoesNotTakeIsRefusedBeforeTheCall) {
  StructureResult r = Run("CASE-GENERATE any record", "minimal/gemini-3-pro-preview");
  ASSERT_EQ(r.status, Outcome::kError) << Show(r);
  ASSERT_FALSE(r.errors.empty());
  EXPECT_NE(r.errors[0].find("gemini-3-pro-preview takes reasoning_effort low or high, not "
                             "reasoning_effort 'minimal'"),
            std::string::npos)
      << Show(r);
}

// Reasoning tokens count against tokenBudget. The first answer needs a correction; without
// thinking the budget allows it. o3's calls carry an output cap of 18432: a budget of 20000 pays
// for the first, and its 4096 reasoning tokens leave too little for a second.
TEST_F(EngineThinkingTest, ReasoningTokensCountAgainstTheTokenBudget) {
  StructureResult plain = Run("CASE-FT-FIX who did it", "openai/gpt-4o-test",
                              R"(,"finalTool":true,"tokenBudget":3000)");
  ASSERT_EQ(plain.status, Outcome::kOk) << Show(plain);
  EXPECT_EQ(plain.iterations, 2);
  StructureResult thinking =
      Run("CASE-FT-FIX who did it", "openai/o3", R"(,"finalTool":true,"tokenBudget":20000)");
  ASSERT_EQ(thinking.status, Outcome::kStale) << Show(thinking);
  EXPECT_EQ(thinking.iterations, 1);
  EXPECT_EQ(thinking.usage.reasoning_tokens, 4096);
  ASSERT_FALSE(thinking.errors.empty());
  EXPECT_NE(thinking.errors.back().find("token budget exhausted: tokenBudget 20000"),
            std::string::npos)
      << Show(thinking);
}

TEST_F(EngineThinkingTest, ThinkingThatUsesTheWholeCapIsOutputCapExhausted) {
  StructureResult r = Run("CASE-GENERATE any record", "openai/o3-tight");
  ASSERT_EQ(r.status, Outcome::kError) << Show(r);
  EXPECT_EQ(r.error_code, ErrorCode::kOutputCapExhausted);
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
