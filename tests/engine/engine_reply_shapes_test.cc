// Reply shapes that real providers send, end to end through `structure sim`: content
// as a list of parts (Mistral), a tool call without `arguments` (OpenRouter), an Ollama thinking
// model's answer in message.thinking, and Anthropic thinking with and without a token count.
#include <gtest/gtest.h>

#include "structure/engine.h"
#include "tests/support/engine_fixture.h"
#include "tests/support/sim_process.h"

namespace structure {
namespace {

constexpr const char* kConfig = R"(
[providers.mistral]
kind = "openai-compatible"
model = "magistral-small-test"

[providers.openrouter]
kind = "openrouter"
model = "anthropic/claude-haiku-4.5"

[providers.ollama]
kind = "ollama"
model = "qwen3-test"

[providers.anthropic]
kind = "anthropic"
model = "claude-test"
[providers.anthropic.models."claude-sonnet-4-5"]
thinking_budget = 2048
[providers.anthropic.models."claude-opus-4-7"]
reasoning_effort = "low"

[aliases]
"default:fast" = "mistral"
"default:analyze" = "mistral"
)";

constexpr const char* kSchema = R"({"type":"object","properties":{
  "name":{"type":"string"},"priority":{"enum":["low","medium","high"]}},
  "required":["name","priority"],"additionalProperties":false})";

// Nothing required: a call without arguments is a complete answer.
constexpr const char* kOptionalSchema = R"({"type":"object","properties":{
  "note":{"type":"string"}},"additionalProperties":false})";

class EngineReplyShapesTest : public testing::EngineFixture<EngineReplyShapesTest> {
 public:
  static std::unique_ptr<testing::ChildProcess> StartSuiteSim(std::string* error) {
    return testing::StartSim(STRUCTURE_BINARY,
                             {"--scenario", std::string(STRUCTURE_SOURCE_DIR) +
                                                "/tests/data/engine/reply_shapes_scenario.json"},
                             error);
  }

 protected:
  void SetUp() override { StartEngineWithConfig(kConfig, "engine_reply_shapes_test.toml"); }

  StructureResult Run(const std::string& prompt, const std::string& model,
                      const std::string& schema = kSchema, const std::string& extra = "") {
    auto req = ParseRequest(*ParseJson(R"({"prompt":")" + prompt + R"(","model":")" + model +
                                       R"(","schema":)" + schema + extra + "}"));
    EXPECT_TRUE(req.ok()) << req.status().message();
    return engine_->Run(*req);
  }
};

std::string Show(const StructureResult& r) { return ToJson(ResultToJson(r)); }

TEST_F(EngineReplyShapesTest, ContentAsPartsAnswersFromTheTextParts) {
  StructureResult r = Run("SHAPE-PARTS Ada, urgent", "mistral/magistral-small-test");
  ASSERT_EQ(r.status, Outcome::kOk) << Show(r);
  EXPECT_EQ(r.data, *ParseJson(R"({"name":"Ada","priority":"high"})"));
  EXPECT_EQ(r.iterations, 1);
  EXPECT_TRUE(r.usage.reasoning_unreported) << Show(r);
  EXPECT_EQ(*ResultToJson(r).find("usage")->find("reasoningTokensUnreported"), Json(true));
}

TEST_F(EngineReplyShapesTest, ToolCallWithoutArgumentsIsAnEmptyObject) {
  StructureResult r = Run("SHAPE-NOARGS nothing to note", "openrouter/anthropic/claude-haiku-4.5",
                          kOptionalSchema, R"(,"finalTool":true)");
  ASSERT_EQ(r.status, Outcome::kOk) << Show(r);
  EXPECT_EQ(r.data, Json::MakeObject());
  EXPECT_EQ(r.iterations, 1);
}

TEST_F(EngineReplyShapesTest, OllamaAnswerInTheThinkingIsTheAnswer) {
  StructureResult r = Run("SHAPE-THINKONLY Ada, whenever", "ollama/qwen3-test");
  ASSERT_EQ(r.status, Outcome::kOk) << Show(r);
  EXPECT_EQ(r.data, *ParseJson(R"({"name":"Ada","priority":"low"})"));
  EXPECT_EQ(r.iterations, 1);
}

// claude-opus-4-7 reports its thinking tokens, claude-sonnet-4-5 does not (the recorded replies
// in tests/data/providers/recorded/anthropic/): the result says which.
TEST_F(EngineReplyShapesTest, AnthropicThinkingTokensReportedOrSaidToBeUnreported) {
  StructureResult counted = Run("CASE-GENERATE any record", "anthropic/claude-opus-4-7");
  ASSERT_EQ(counted.status, Outcome::kOk) << Show(counted);
  EXPECT_EQ(counted.usage.reasoning_tokens, 256);  // reasoning_effort low
  EXPECT_FALSE(counted.usage.reasoning_unreported);
  EXPECT_EQ(ResultToJson(counted).find("usage")->find("reasoningTokensUnreported"), nullptr);
  StructureResult uncounted = Run("CASE-GENERATE any record", "anthropic/claude-sonnet-4-5");
  ASSERT_EQ(uncounted.status, Outcome::kOk) << Show(uncounted);
  EXPECT_EQ(uncounted.usage.reasoning_tokens, 0);
  EXPECT_TRUE(uncounted.usage.reasoning_unreported) << Show(uncounted);
  EXPECT_GE(uncounted.usage.output_tokens, 1024);  // the thinking is billed as output
}

}  // namespace
}  // namespace structure
