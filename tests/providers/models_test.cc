// The model table: every built-in row applies and cites its page, the longest prefix wins,
// OpenRouter routes by the vendor's model name, thinking resolves to what a family takes, and
// config rows change the table with errors that name the key.
#include "providers/models.h"

#include <gtest/gtest.h>

#include <set>

#include "providers/kinds.h"

namespace structure::providers {
namespace {

ModelFamily Find(ProviderKind kind, std::string_view model) {
  return ModelTable::Builtin()->Find(kind, model);
}

Json Fields(const char* text) { return *ParseJson(text); }

TEST(ModelTableTest, EveryBuiltinRowAppliesAndCitesItsPage) {
  std::vector<ModelFamily> rows;
  ASSERT_TRUE(AddBuiltinRows(rows).ok()) << AddBuiltinRows(rows).message();
  std::set<std::pair<int, std::string>> seen;
  for (const ModelFamily& f : rows) {
    EXPECT_EQ(f.doc.rfind("https://", 0), 0u) << f.prefix << ": " << f.doc;
    EXPECT_TRUE(seen.emplace(static_cast<int>(f.kind), f.prefix).second) << "twice: " << f.prefix;
    EXPECT_FALSE(f.from_config);
  }
  // Every list a kind uses has a default row.
  for (const KindInfo& k : Kinds()) {
    EXPECT_TRUE(seen.count({static_cast<int>(k.families), ""})) << k.name;
  }
}

TEST(ModelTableTest, TheLongestPrefixWins) {
  EXPECT_EQ(Find(ProviderKind::kOpenAi, "gpt-4o-mini-2024-07-18").prefix, "gpt-4o");
  EXPECT_EQ(Find(ProviderKind::kOpenAi, "gpt-4-turbo").prefix, "gpt-4");
  EXPECT_EQ(Find(ProviderKind::kOpenAi, "gpt-5-mini").prefix, "gpt-5");
  EXPECT_EQ(Find(ProviderKind::kOpenAi, "gpt-5.1-mini").prefix, "gpt-5.1");
  EXPECT_EQ(Find(ProviderKind::kOpenAi, "gpt-5.4").prefix, "gpt-5.4");
  EXPECT_EQ(Find(ProviderKind::kOpenAi, "gpt-5.6").prefix, "gpt-5.");
  EXPECT_EQ(Find(ProviderKind::kOpenAi, "o3-mini").prefix, "o3");
  EXPECT_EQ(Find(ProviderKind::kOpenAi, "my-finetune").prefix, "");
  EXPECT_EQ(Find(ProviderKind::kAnthropic, "claude-opus-4-1-20250805").prefix, "claude-opus-4-1");
  EXPECT_EQ(Find(ProviderKind::kAnthropic, "claude-opus-4-20250514").prefix, "claude-opus-4");
  EXPECT_EQ(Find(ProviderKind::kAnthropic, "claude-sonnet-4-20250514").prefix, "claude-sonnet-4");
  EXPECT_EQ(Find(ProviderKind::kAnthropic, "claude-sonnet-4-5-20250929").prefix,
            "claude-sonnet-4-5");
  EXPECT_EQ(Find(ProviderKind::kGemini, "models/gemini-2.5-flash-lite").prefix,
            "gemini-2.5-flash-lite");
  EXPECT_EQ(Find(ProviderKind::kGemini, "gemini-2.0-flash-lite").prefix, "gemini-2.0-flash");
  // The OpenAI-compatible servers share one list.
  EXPECT_EQ(Find(ProviderKind::kVllm, "Qwen/Qwen3-8B").kind, ProviderKind::kOpenAiCompat);
}

TEST(ModelTableTest, OpenRouterRoutesByTheVendorsModelName) {
  ModelFamily o3 = Find(ProviderKind::kOpenRouter, "openai/o3-mini");
  EXPECT_FALSE(o3.parallel_tool_calls);
  EXPECT_FALSE(o3.temperature);
  EXPECT_EQ(o3.cap_field, "max_tokens");  // OpenRouter's own
  ModelFamily claude = Find(ProviderKind::kOpenRouter, "anthropic/claude-haiku-4.5");
  EXPECT_TRUE(claude.cache_control);
  EXPECT_EQ(claude.cache_min_tokens, 4096);
  EXPECT_EQ(claude.output_cap, 64000);
  // OpenRouter translates levels and budgets itself: its own thinking, not the vendor's.
  EXPECT_GT(claude.budget_max, 0);
  EXPECT_FALSE(Find(ProviderKind::kOpenRouter, "meta-llama/llama-3.3-70b").cache_control);
}

TEST(ModelTableTest, ThinkingResolvesToWhatTheFamilyTakes) {
  Thinking t;
  t.effort = "high";
  auto level = ResolveThinking(Find(ProviderKind::kGemini, "gemini-3-pro-preview"), "g", t);
  ASSERT_TRUE(level.ok());
  EXPECT_EQ(level->form, WireThinking::Form::kLevel);
  auto budget = ResolveThinking(Find(ProviderKind::kGemini, "gemini-2.5-flash"), "g", t);
  ASSERT_TRUE(budget.ok());
  EXPECT_EQ(budget->form, WireThinking::Form::kBudget);
  EXPECT_EQ(budget->budget, 24576);
  t.effort.clear();
  t.budget = 100;
  auto low = ResolveThinking(Find(ProviderKind::kGemini, "gemini-2.5-flash-lite"), "lite", t);
  ASSERT_FALSE(low.ok());
  EXPECT_EQ(low.status().message(),
            "lite takes thinking_budget 512..24576 or -1 (dynamic), not thinking_budget 100");
  t.budget = -1;
  EXPECT_TRUE(ResolveThinking(Find(ProviderKind::kGemini, "gemini-2.5-pro"), "p", t).ok());
  EXPECT_FALSE(ResolveThinking(Find(ProviderKind::kAnthropic, "claude-sonnet-4-5"), "s", t).ok());
  EXPECT_EQ(ResolveThinking(Find(ProviderKind::kOpenAi, "gpt-4o"), "m", Thinking{})->form,
            WireThinking::Form::kUnset);
}

TEST(ModelTableTest, ConfigRowsAddAFamilyOrChangeOne) {
  auto table = ModelTable::WithOverrides(
      {{ProviderKind::kOpenAi, "o9", Fields(R"({"like": "o3", "output_cap": 200000})")},
       {ProviderKind::kAnthropic, "claude-sonnet-4-5",
        Fields(R"({"efforts": ["low", "high"], "budget_max": 0})")},
       {ProviderKind::kVllm, "qwen3", Fields(R"({"efforts": [], "parallel_tool_calls": false})")}});
  ASSERT_TRUE(table.ok()) << table.status().message();
  ModelFamily o9 = (*table)->Find(ProviderKind::kOpenAi, "o9-mini");
  EXPECT_TRUE(o9.from_config);
  EXPECT_FALSE(o9.parallel_tool_calls);  // from o3
  EXPECT_EQ(o9.output_cap, 200000);
  ModelFamily sonnet = (*table)->Find(ProviderKind::kAnthropic, "claude-sonnet-4-5-20250929");
  EXPECT_EQ(sonnet.efforts, (std::vector<std::string>{"low", "high"}));
  EXPECT_EQ(sonnet.output_cap, 64000);  // the rest of the built-in row
  // A row given for vllm is a row of every OpenAI-compatible server.
  EXPECT_FALSE((*table)->Find(ProviderKind::kLlamaCpp, "qwen3-8b").parallel_tool_calls);
  // The built-in table itself is unchanged.
  EXPECT_EQ(Find(ProviderKind::kOpenAi, "o9-mini").prefix, "");
}

TEST(ModelTableTest, BadConfigRowsNameTheKey) {
  auto error = [](const char* fields) {
    auto t = ModelTable::WithOverrides({{ProviderKind::kGemini, "gemini-9", Fields(fields)}});
    return t.ok() ? std::string() : t.status().message();
  };
  EXPECT_EQ(
      error(R"({"efforts": ["turbo"]})"),
      "gemini.\"gemini-9\".efforts: unknown level 'turbo' (known: none, minimal, low, medium, "
      "high, xhigh or max)");
  EXPECT_EQ(error(R"({"output_cap": -5})"),
            "gemini.\"gemini-9\".output_cap: must be a whole number >= 0");
  EXPECT_EQ(error(R"({"parallel_tool_calls": "no"})"),
            "gemini.\"gemini-9\".parallel_tool_calls: must be true or false");
  EXPECT_EQ(error(R"({"replay": "all"})"),
            "gemini.\"gemini-9\".replay: must be \"none\", \"blocks\", \"signatures\" or "
            "\"signatures-checked\"");
  EXPECT_EQ(error(R"({"budget_min": 900, "budget_max": 800})"),
            "gemini.\"gemini-9\".budget_min: must be at most budget_max (800)");
  EXPECT_NE(error(R"({"thinking": true})").find("gemini.\"gemini-9\".thinking: unknown key"),
            std::string::npos);
  EXPECT_EQ(error(R"({"like": 3})"), "gemini.\"gemini-9\".like: must be a model prefix");
}

// Anthropic documents structured outputs (output_config.format, strict tools) for Sonnet 4.5,
// Opus 4.5, Haiku 4.5 and later; Opus 4.1 has them in beta only.
TEST(ModelTableTest, StructuredOutputsOnlyForTheFamiliesThatHaveThem) {
  for (const char* model :
       {"claude-3-haiku-20240307", "claude-3-opus-20240229", "claude-3-5-haiku-20241022",
        "claude-3-5-sonnet-20241022", "claude-3-7-sonnet-20250219", "claude-sonnet-4-20250514",
        "claude-opus-4-20250514", "claude-opus-4-1-20250805"}) {
    ModelFamily f = Find(ProviderKind::kAnthropic, model);
    EXPECT_FALSE(f.structured_outputs) << model;
    std::string why = NoStructuredOutputsReason(f, model);
    EXPECT_EQ(why.rfind(std::string(model) + " has no structured outputs (Anthropic documents", 0),
              0u)
        << why;
    EXPECT_NE(why.find("https://platform.claude.com/docs/en/build-with-claude/structured-outputs"),
              std::string::npos)
        << why;
  }
  for (const char* model :
       {"claude-sonnet-4-5-20250929", "claude-haiku-4-5", "claude-opus-4-5", "claude-opus-4-6",
        "claude-sonnet-4-6", "claude-opus-4-7", "claude-opus-5", "claude-fable-5"}) {
    ModelFamily f = Find(ProviderKind::kAnthropic, model);
    EXPECT_TRUE(f.structured_outputs) << model;
    EXPECT_EQ(NoStructuredOutputsReason(f, model), "") << model;
  }
  // OpenRouter's structured outputs are its own.
  EXPECT_TRUE(Find(ProviderKind::kOpenRouter, "anthropic/claude-sonnet-4").structured_outputs);
  // A config row turns them on or off.
  auto table = ModelTable::WithOverrides(
      {{ProviderKind::kAnthropic, "claude-opus-4-1", Fields(R"({"structured_outputs": true})")}});
  ASSERT_TRUE(table.ok()) << table.status().message();
  EXPECT_TRUE((*table)->Find(ProviderKind::kAnthropic, "claude-opus-4-1").structured_outputs);
}

// Thinking defaults, each checked against the family's page (models_builtin.cc quotes them).
TEST(ModelTableTest, ThinkingDefaultsAreTheDocumentedOnes) {
  struct Row {
    ProviderKind kind;
    const char* model;
    bool thinks_by_default;
  };
  const Row rows[] = {
      {ProviderKind::kOpenAi, "gpt-4o", false},
      {ProviderKind::kOpenAi, "o3", true},
      {ProviderKind::kOpenAi, "gpt-5-mini", true},
      {ProviderKind::kOpenAi, "gpt-5.1", false},
      {ProviderKind::kOpenAi, "gpt-5.2", false},
      {ProviderKind::kOpenAi, "gpt-5.4-mini", false},
      {ProviderKind::kOpenAi, "gpt-5.5", true},
      {ProviderKind::kOpenAi, "gpt-5.6", true},
      {ProviderKind::kOpenAi, "gpt-5-pro", true},
      {ProviderKind::kAnthropic, "claude-opus-4-7", false},
      {ProviderKind::kAnthropic, "claude-mythos-preview", true},
      {ProviderKind::kGemini, "gemini-2.5-flash", true},
      {ProviderKind::kGemini, "gemini-2.5-flash-lite", false},
      {ProviderKind::kGemini, "gemini-3-pro-preview", true},
      {ProviderKind::kOllama, "gpt-oss:20b", true},
      {ProviderKind::kOllama, "qwen3:8b", true},
      {ProviderKind::kOllama, "llama3.1:8b", false},
      {ProviderKind::kOllama, "qwen3-coder:30b", false},
  };
  for (const Row& r : rows) {
    EXPECT_EQ(Find(r.kind, r.model).thinks_by_default, r.thinks_by_default) << r.model;
  }
  EXPECT_EQ(Find(ProviderKind::kOpenAi, "gpt-5-pro").efforts, (std::vector<std::string>{"high"}));
}

// Ollama: `think` only for the families that think, in the form each takes.
TEST(ModelTableTest, OllamaThinkIsKeyedByTheModelFamily) {
  Thinking high;
  high.effort = "high";
  auto llama = ResolveThinking(Find(ProviderKind::kOllama, "llama3.1:8b"), "llama3.1:8b", high);
  ASSERT_FALSE(llama.ok());
  EXPECT_EQ(llama.status().message(),
            "llama3.1:8b takes no thinking parameter (it does not think), not reasoning_effort "
            "'high'");
  Thinking none;
  none.effort = "none";
  // Nothing to turn off: nothing is sent.
  EXPECT_EQ(ResolveThinking(Find(ProviderKind::kOllama, "llama3.1:8b"), "l", none)->form,
            WireThinking::Form::kUnset);
  EXPECT_EQ(ResolveThinking(Find(ProviderKind::kOllama, "deepseek-v3.1:671b"), "d", high)->form,
            WireThinking::Form::kOn);
  EXPECT_EQ(ResolveThinking(Find(ProviderKind::kOllama, "gpt-oss:20b"), "g", high)->form,
            WireThinking::Form::kLevel);
  Thinking minimal;
  minimal.effort = "minimal";
  EXPECT_FALSE(ResolveThinking(Find(ProviderKind::kOllama, "gpt-oss:20b"), "g", minimal).ok());
}

// Opus 4.7 refuses thinking {type: "disabled"}: "none" leaves `thinking` out.
TEST(ModelTableTest, ThinkingOffByOmission) {
  Thinking none;
  none.effort = "none";
  ModelFamily opus = Find(ProviderKind::kAnthropic, "claude-opus-4-7");
  EXPECT_TRUE(opus.off_by_omission);
  EXPECT_EQ(ResolveThinking(opus, "claude-opus-4-7", none)->form, WireThinking::Form::kUnset);
  Thinking zero;
  zero.budget = 0;
  EXPECT_EQ(ResolveThinking(opus, "claude-opus-4-7", zero)->form, WireThinking::Form::kUnset);
  // The families that take type "disabled" keep it.
  for (const char* model : {"claude-sonnet-4-5", "claude-opus-4-6", "claude-sonnet-4-6"}) {
    EXPECT_EQ(ResolveThinking(Find(ProviderKind::kAnthropic, model), model, none)->form,
              WireThinking::Form::kOff)
        << model;
  }
  // Mythos Preview thinks when `thinking` is absent and cannot be turned off.
  EXPECT_FALSE(
      ResolveThinking(Find(ProviderKind::kAnthropic, "claude-mythos-preview"), "m", none).ok());
}

TEST(ModelTableTest, RowsShowAsJson) {
  Json j = FamilyToJson(Find(ProviderKind::kGemini, "gemini-2.5-pro"));
  EXPECT_EQ(*j.find("kind"), Json("gemini"));
  EXPECT_EQ(*j.find("prefix"), Json("gemini-2.5-pro"));
  EXPECT_EQ(*j.find("budgetMin"), Json(int64_t{128}));
  EXPECT_EQ(*j.find("thinkingOff"), Json(false));
  EXPECT_EQ(*j.find("source"), Json("built in"));
  EXPECT_EQ(*j.find("structuredOutputs"), Json(true));
  Json sonnet4 = FamilyToJson(Find(ProviderKind::kAnthropic, "claude-sonnet-4-20250514"));
  EXPECT_EQ(*sonnet4.find("structuredOutputs"), Json(false));
  EXPECT_EQ(*sonnet4.find("offByOmission"), Json(false));
  EXPECT_EQ(*FamilyToJson(Find(ProviderKind::kAnthropic, "claude-opus-4-7")).find("offByOmission"),
            Json(true));
}

}  // namespace
}  // namespace structure::providers
