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
            "t.toml:3:20: providers.oa.reasoning_effort: unknown effort 'turbo' "
            "(known: none, minimal, low, medium, high, xhigh, max)");
  EXPECT_NE(ErrorOf("[providers.a]\nkind = \"anthropic\"\nthinking_budget = 2048\n"
                    "reasoning_effort = \"high\"\n")
                .find("set reasoning_effort or thinking_budget, not both"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[providers.a]\nkind = \"anthropic\"\nmodel = \"claude-sonnet-4-5\"\n"
                    "thinking_budget = 4096\nmax_output_tokens = 4096\n")
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

// The settings are checked against the family of the model they are for (providers/models.h),
// so a parameter the model does not take is an error at start, naming the key, not a 400 at the
// first call.
TEST(ModelSettingsTest, SettingsAreCheckedAgainstTheModelsFamily) {
  EXPECT_EQ(
      ErrorOf("[providers.g]\nkind = \"gemini\"\nmodel = \"gemini-3-pro-preview\"\n"
              "reasoning_effort = \"minimal\"\n"),
      "t.toml:4:20: providers.g.reasoning_effort: gemini-3-pro-preview takes reasoning_effort "
      "low or high, not reasoning_effort 'minimal' (the model table: structure providers "
      "--models)");
  EXPECT_NE(ErrorOf("[providers.oa]\nkind = \"openai\"\n[providers.oa.models.\"gpt-4o\"]\n"
                    "reasoning_effort = \"high\"\n")
                .find("providers.oa.models.gpt-4o.reasoning_effort: gpt-4o takes no thinking "
                      "parameter (it does not think)"),
            std::string::npos);
  EXPECT_NE(
      ErrorOf("[providers.a]\nkind = \"anthropic\"\n[providers.a.models.\"claude-opus-4-7\"]\n"
              "thinking_budget = 8000\n")
          .find("providers.a.models.claude-opus-4-7.thinking_budget: claude-opus-4-7 takes "
                "reasoning_effort low, medium, high, xhigh or max, not thinking_budget 8000"),
      std::string::npos);
  EXPECT_NE(ErrorOf("[providers.a]\nkind = \"anthropic\"\n"
                    "[providers.a.models.\"claude-sonnet-4-5\"]\nthinking_budget = 512\n")
                .find("claude-sonnet-4-5 takes thinking_budget 1024..63999, not thinking_budget "
                      "512"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[providers.g]\nkind = \"gemini\"\n[providers.g.models.\"gemini-2.5-pro\"]\n"
                    "reasoning_effort = \"none\"\n")
                .find("gemini-2.5-pro cannot turn thinking off"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[providers.g]\nkind = \"gemini\"\n[providers.g.models.\"gemini-2.0-flash\"]\n"
                    "max_output_tokens = 20000\n")
                .find("providers.g.models.gemini-2.0-flash.max_output_tokens: is above the output "
                      "cap of gemini-2.0-flash (8192 tokens, was 20000)"),
            std::string::npos);
}

// [model_families.<kind>."<prefix>"] adds a model without a rebuild, and the settings of the
// same file are checked against it.
TEST(ModelSettingsTest, ModelFamiliesFromTheFileChangeTheTable) {
  auto c = Parse(R"(
[model_families.openai."o9"]
like = "o3"
efforts = ["low", "high"]
output_cap = 200000
[providers.oa]
kind = "openai"
model = "o9-mini"
reasoning_effort = "high"
[aliases]
"default:fast" = "oa"
"default:analyze" = "oa"
)");
  ASSERT_TRUE(c.ok()) << c.status().message();
  ASSERT_EQ(c->model_families.size(), 1u);
  EXPECT_EQ(c->model_families[0].prefix, "o9");
  Json j = ConfigToJson(*c);
  EXPECT_EQ(ToJson(*j.find("modelFamilies")->find("openai")->find("o9")->find("efforts")),
            R"(["low","high"])");
  EXPECT_NE(ErrorOf("[model_families.openai.\"o9\"]\nlike = \"o3\"\n[providers.oa]\n"
                    "kind = \"openai\"\nmodel = \"o9\"\nreasoning_effort = \"minimal\"\n")
                .find("o9 takes reasoning_effort low, medium or high, not reasoning_effort "
                      "'minimal'"),
            std::string::npos);
}

TEST(ModelSettingsTest, BadModelFamilyRowsAreNamedWithTheirKeyAndLine) {
  EXPECT_EQ(ErrorOf("[model_families.openai.\"o9\"]\nefforts = [\"turbo\"]\n"),
            "t.toml:2:11: model_families.openai.\"o9\".efforts: unknown level 'turbo' (known: "
            "none, minimal, low, medium, high, xhigh or max)");
  EXPECT_EQ(ErrorOf("[model_families.openai.\"o9\"]\noutput_cap = -1\n"),
            "t.toml:2:14: model_families.openai.\"o9\".output_cap: must be a whole number >= 0");
  EXPECT_EQ(
      ErrorOf("[model_families.openai.\"o9\"]\nthinking = true\n")
          .rfind("t.toml:2:12: model_families.openai.\"o9\".thinking: unknown key (known: ", 0),
      0u);
  EXPECT_NE(ErrorOf("[model_families.bard.\"x\"]\nefforts = []\n")
                .find("model_families.bard: unknown provider kind (known: openai, anthropic"),
            std::string::npos);
  EXPECT_NE(ErrorOf("[model_families.openai]\no9 = 3\n")
                .find("model_families.openai.\"o9\": must be "
                      "a table"),
            std::string::npos);
}

// config check shows the key the same way `structure providers` does: the SDK's variable when
// the config names none (before, a provider relying on OPENAI_API_KEY showed "not set").
TEST(ModelSettingsTest, ConfigJsonDescribesTheKeyLikeStructureProviders) {
  auto c = Parse(
      "[providers.oa]\nkind = \"openai\"\nmodel = \"gpt-4o\"\n"
      "[providers.local]\nkind = \"vllm\"\n"
      "[aliases]\n\"default:fast\" = \"oa\"\n\"default:analyze\" = \"oa\"\n");
  ASSERT_TRUE(c.ok()) << c.status().message();
  Json j = ConfigToJson(*c);
  const Json& oa = *j.find("providers")->find("oa");
  EXPECT_EQ(*oa.find("apiKeyEnv"), Json("OPENAI_API_KEY"));
  const char* set = std::getenv("OPENAI_API_KEY");
  EXPECT_EQ(*oa.find("apiKey"), Json(set && *set ? "set" : "not set"));
  const Json& local = *j.find("providers")->find("local");
  EXPECT_EQ(*local.find("apiKeyEnv"), Json(""));
  EXPECT_EQ(*local.find("apiKey"), Json("not needed"));
}

}  // namespace
}  // namespace structure::config
