// `structure sim --invalid-rate 1` against the engine: every answer breaks a constraint of the
// user's schema, whatever form (envelope, union, tool, optional fields made nullable) the provider
// was given, so with one loop every request ends stale.
#include <gtest/gtest.h>

#include <iterator>

#include "structure/engine.h"
#include "tests/support/engine_fixture.h"
#include "tests/support/sim_process.h"

namespace structure {
namespace {

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
[providers.legacy]
kind = "gemini"
model = "gemini-test"
profile = "gemini-legacy"
[providers.ollama]
kind = "ollama"
model = "llama-test"
[providers.compat]
kind = "openai-compatible"
model = "local-test"
[aliases]
"default:fast" = "openai"
"default:analyze" = "openai"
)";

// Shapes that put a constraint in different places: a bound, an optional property, an enum in
// an array, a nested object, a string length.
const char* const kSchemas[] = {
    R"({"type":"object","properties":{"n":{"type":"integer","minimum":1,"maximum":5}},"required":["n"]})",
    R"({"type":"object","properties":{"name":{"type":"string"},"note":{"type":"string"}},"required":["name"]})",
    R"({"type":"object","properties":{"tags":{"type":"array","items":{"enum":["a","b"]},"minItems":1}},"required":["tags"]})",
    R"({"type":"object","properties":{"who":{"type":"object","properties":{"id":{"type":"integer"}},"required":["id"]}},"required":["who"]})",
    R"({"type":"object","properties":{"code":{"type":"string","maxLength":3}},"required":["code"]})",
};

class EngineFaultsTest : public testing::EngineFixture<EngineFaultsTest> {
 public:
  static std::unique_ptr<testing::ChildProcess> StartSuiteSim(std::string* error) {
    return testing::StartSim(STRUCTURE_BINARY, {"--invalid-rate", "1", "--seed", "11"}, error);
  }

 protected:
  void SetUp() override { StartEngineWithConfig(kConfig, "engine_faults_test.toml"); }
};

TEST_F(EngineFaultsTest, InvalidRateOneBreaksEveryAnswerOfEveryProvider) {
  for (const char* provider : {"openai", "anthropic", "gemini", "legacy", "ollama", "compat"}) {
    for (bool final_tool : {false, true}) {
      for (size_t i = 0; i < std::size(kSchemas); ++i) {
        std::string body = std::string(R"({"prompt":"record )") + std::to_string(i) +
                           R"(","maxLoops":1,"model":")" + provider + R"(","finalTool":)" +
                           (final_tool ? "true" : "false") + R"(,"schema":)" + kSchemas[i] + "}";
        auto req = ParseRequest(*ParseJson(body));
        ASSERT_TRUE(req.ok()) << req.status().message();
        StructureResult r = engine_->Run(*req);
        EXPECT_EQ(r.status, Outcome::kStale) << provider << (final_tool ? " final tool" : "")
                                             << " schema " << i << ": " << ToJson(ResultToJson(r));
      }
    }
  }
}

}  // namespace
}  // namespace structure
