// Per-model thinking settings: reasoning_effort, thinking_budget, max_output_tokens, on a
// provider or one of its models, and the errors a provider would give at the first call.
#include <gtest/gtest.h>

#include "config/config_json.h"
#include "config/load_config.h"
#include "config/settings.h"

namespace structure::config {
namespace {

Result<EngineConfig> Parse(const std::string& text) { return ParseConfig(text, "t.toml"); }

std::string ErrorOf(const std::string& text) {
  auto r = Parse(text);
  EXPECT_FALSE(r.ok()) << text;
  return r.ok() ? "" : r.status().message();
}

TEST(ModelSettingsTest, ModelTableOverridesTheProvidersSettings) {
  auto c = Parse(R"(
[providers.oa]
kind = "openai"
reasoning_effort = "low"
max_output_tokens = 9000
[providers.oa.models."o3"]
reasoning_effort = "high"
[providers.oa.models."gpt-4o"]
reasoning_effort = "none"
max_output_tokens = 2000
[aliases]
"default:fast" = "oa"
"default:analyze" = "oa"
)");
  ASSERT_TRUE(c.ok()) << c.status().message();
  const ProviderConfig& p = c->providers.at("oa");
  ModelSettings o3 = ModelSettingsFor(p, "o3");
  EXPECT_EQ(*o3.reasoning_effort, "high");
  EXPECT_EQ(*o3.max_output_tokens, 9000);
  ModelSettings other = ModelSettingsFor(p, "o4-mini");
  EXPECT_EQ(*other.reasoning_effort, "low");
  EXPECT_EQ(*ModelSettingsFor(p, "gpt-4o").max_output_tokens, 2000);
  Json j = ConfigToJson(*c);
  const Json& pj = *j.find("providers")->find("oa");
  EXPECT_EQ(*pj.find("reasoningEffort"), Json("low"));
  EXPECT_EQ(*pj.find("models")->find("o3")->find("reasoningEffort"), Json("high"));
}

TEST(ModelSettingsTest, ABudgetOnTheModelReplacesTheProvidersEffort) {
  auto c = Parse(R"(
[providers.a]
kind = "anthropic"
reasoning_effort = "medium"
[providers.a.models."claude-sonnet-4-5"]
thinking_budget = 4096
[aliases]
"default:fast" = "a"
"default:analyze" = "a"
)");
  ASSERT_TRUE(c.ok()) << c.status().message();
  ModelSettings m = ModelSettingsFor(c->providers.at("a"), "claude-sonnet-4-5");
  EXPECT_EQ(*m.thinking_budget, 4096);
  EXPECT_FALSE(m.reasoning_effort.has_value());
}

TEST(ModelSettingsTest, BadValuesAreNamedWithTheirKeyAndLine) {
  EXPECT_EQ(ErrorOf("[providers.oa]\nkind = \"openai\"\nreasoning_effort = \"turbo\"\n"),
            "t.toml:3:20: providers.oa.reasoning_effort: unknown effort 'turbo' for openai "
            "(known: none, minimal, low, medium, high, xhigh, max)");
  EXPECT_NE(ErrorOf("[providers.g]\nkind = \"gemini\"\nreasoning_effort = \"max\"\n")
                .find("unknown effort 'max' for gemini (known: none, minimal, low, medium, high)"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[providers.oa]\nkind = \"openai\"\nthinking_budget = 2048\n")
                .find("providers.oa.thinking_budget: openai takes reasoning_effort, not a thinking "
                      "budget"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[providers.a]\nkind = \"anthropic\"\nthinking_budget = 512\n")
                .find("providers.a.thinking_budget: must be >= 1024 for anthropic (was 512)"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[providers.a]\nkind = \"anthropic\"\nthinking_budget = 2048\n"
                    "reasoning_effort = \"high\"\n")
                .find("set reasoning_effort or thinking_budget, not both"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[providers.a]\nkind = \"anthropic\"\nthinking_budget = 4096\n"
                    "max_output_tokens = 4096\n")
                .find("providers.a.max_output_tokens: must be greater than thinking_budget (4096)"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[providers.oa]\nkind = \"openai\"\n[providers.oa.models.\"o3\"]\n"
                    "max_output_tokens = 0\n")
                .find("providers.oa.models.o3.max_output_tokens: must be 1..10000000 (was 0)"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[providers.oa]\nkind = \"openai\"\n[providers.oa.models.\"o3\"]\n"
                    "thinking = true\n")
                .find("providers.oa.models.o3.thinking: unknown key"),
            std::string::npos);
}

}  // namespace
}  // namespace structure::config
