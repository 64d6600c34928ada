// Every kind of request body each wire format builds, checked against the provider's published
// request schema (tests/data/request_schemas): valid, and no field the schema does not declare.
// Golden tests check their bodies the same way (golden.h).
#include <gtest/gtest.h>

#include <functional>

#include "providers/wire.h"
#include "tests/providers/golden.h"
#include "tests/providers/request_schema_check.h"

namespace structure::providers {
namespace {

struct Format {
  const char* name;  // the folder of tests/data/providers and the schema's key
  ProviderKind kind;
  bool legacy = false;  // Gemini's legacy OpenAPI schema dialect
  OpenAiApi api = OpenAiApi::kByModel;
};

const Format kFormats[] = {
    {"openai", ProviderKind::kOpenAi},
    {"openai_compat", ProviderKind::kOpenAiCompat},
    {"openrouter", ProviderKind::kOpenRouter},
    {"anthropic", ProviderKind::kAnthropic},
    {"gemini", ProviderKind::kGemini},
    {"gemini", ProviderKind::kGemini, true},
    {"ollama", ProviderKind::kOllama},
    {"openai_responses", ProviderKind::kOpenAi, false, OpenAiApi::kResponses},
};

struct Variant {
  const char* name;
  std::function<ProviderCall()> make;
  bool budget = false;  // only for formats that take a thinking budget
};

ProviderCall NeedToolOnly() {
  ProviderCall c = testing::ToolCallHistory();
  c.final_tool = false;
  c.turns.resize(1);
  return c;
}

ProviderCall WithEffort(ProviderCall c, const char* effort) {
  c.thinking.effort = effort;
  return c;
}

// A final-tool correction on a thinking model: the rejected call comes back with its reasoning
// and signatures.
ProviderCall ThinkingReplay() {
  ProviderCall c = testing::ToolCallHistory();
  c.thinking.budget = 2048;
  c.max_tokens = 4096;
  c.turns[1].thoughts.push_back({"Checking the ages.", "c2ln", false});
  c.turns[1].tool_calls[0].signature = "CiQBc2ln";
  c.turns[1].text = "Submitting.";
  c.turns[1].text_signature = "dHh0";
  return c;
}

const Variant kVariants[] = {
    {"strict", [] { return testing::BasicCall(); }},
    {"plain_json", [] { return testing::PlainJsonCall(); }},
    {"final_tool_reask", [] { return testing::ToolCallHistory(); }},
    {"need_tool", [] { return NeedToolOnly(); }},
    {"reask_after_empty_reply", [] { return testing::ReaskAfterEmptyReply(); }},
    {"effort_low", [] { return WithEffort(testing::BasicCall(), "low"); }},
    {"effort_none", [] { return WithEffort(testing::BasicCall(), "none"); }},
    {"effort_final_tool", [] { return WithEffort(testing::ToolCallHistory(), "high"); }},
    {"budget_replay", [] { return ThinkingReplay(); }, true},
};

// A model of the format's kind that takes the thinking the variant asks for (the model table).
std::string ModelFor(const Format& f, const Thinking& t) {
  ProviderKind k = f.kind;
  if (!t.requested()) return "test-model";
  if (f.api == OpenAiApi::kResponses) return "gpt-5.4";
  bool budget_or_off = t.budget.has_value() || t.effort == "none";
  switch (k) {
    case ProviderKind::kOpenAi:
      return "gpt-5.1";
    case ProviderKind::kAnthropic:
      return t.budget ? "claude-sonnet-4-5" : "claude-sonnet-4-6";
    case ProviderKind::kGemini:
      return budget_or_off ? "gemini-2.5-flash" : "gemini-3-flash-preview";
    case ProviderKind::kOllama:
      // A model the table does not know is sent no `think`: a level goes to gpt-oss, off to Qwen3.
      return t.effort == "none" ? "qwen3:8b" : "gpt-oss:20b";
    default:
      return "test-model";
  }
}

bool TakesBudget(ProviderKind k) {
  return k == ProviderKind::kAnthropic || k == ProviderKind::kGemini ||
         k == ProviderKind::kOpenRouter;
}

TEST(RequestSchemaTest, EveryBuiltBodyConformsToThePublishedSchema) {
  int checked = 0;
  for (const Format& f : kFormats) {
    for (const Variant& v : kVariants) {
      if (v.budget && !TakesBudget(f.kind)) continue;
      ProviderCall call = v.make();
      call.model = ModelFor(f, call.thinking);
      Endpoint e;
      e.kind = f.kind;
      e.base_url = "http://127.0.0.1:9";
      e.api_key = "k";
      e.gemini_legacy_schema = f.legacy;
      e.openai_api = f.api;
      auto req = BuildRequest(call, e);
      ASSERT_TRUE(req.ok()) << f.name << "/" << v.name << ": " << req.status().ToString();
      for (const std::string& issue : testing::PublishedSchemaIssues(f.name, req->body)) {
        ADD_FAILURE() << f.name << (f.legacy ? " (legacy)" : "") << "/" << v.name << ": " << issue
                      << "\n"
                      << req->body;
      }
      ++checked;
    }
  }
  EXPECT_EQ(checked, 8 * 8 + 4);
}

// Claude through OpenRouter: the marked system prompt (a text part with cache_control) is a form
// OpenRouter documents.
TEST(RequestSchemaTest, OpenRouterCacheMarkConformsToThePublishedSchema) {
  ProviderCall call = testing::BasicCall();
  call.model = "anthropic/claude-sonnet-4.5";
  call.system = std::string(8000, 's');
  Endpoint e;
  e.kind = ProviderKind::kOpenRouter;
  e.base_url = "http://127.0.0.1:9";
  auto req = BuildRequest(call, e);
  ASSERT_TRUE(req.ok()) << req.status().ToString();
  ASSERT_NE(req->body.find("cache_control"), std::string::npos);
  EXPECT_TRUE(testing::PublishedSchemaIssues("openrouter", req->body).empty())
      << ::testing::PrintToString(testing::PublishedSchemaIssues("openrouter", req->body));
}

// The check itself: a field no schema declares, and a value the schema refuses, are reported.
TEST(RequestSchemaTest, ReportsUnknownFieldsAndInvalidValues) {
  auto issues = testing::PublishedSchemaIssues(
      "openai",
      R"({"model":"m","messages":[{"role":"user","content":"hi","mood":"x"}],"frobnicate":1})");
  ASSERT_EQ(issues.size(), 2u) << ::testing::PrintToString(issues);
  EXPECT_EQ(issues[0], "unknown field /messages/0/mood");
  EXPECT_EQ(issues[1], "unknown field /frobnicate");
  auto bad = testing::PublishedSchemaIssues(
      "anthropic",
      R"({"model":"m","max_tokens":5,"messages":[{"role":"assistant","content":[{"type":"text","text":""}]}]})");
  EXPECT_FALSE(bad.empty());
  auto legacy = testing::PublishedSchemaIssues(
      "gemini", R"({"contents":[{"role":"user","parts":[{"text":"x"}]}],
                   "generationConfig":{"responseMimeType":"application/json",
                                       "responseSchema":{"type":"string"}}})");
  EXPECT_FALSE(legacy.empty()) << "lower-case legacy types are not the documented form";
  EXPECT_FALSE(testing::PublishedSchemaIssues(
                   "gemini", R"({"contents":[{"role":"user","parts":[{"text":"x"}]}],
                   "generationConfig":{"thinkingConfig":{"thinkingLevel":"low"}}})")
                   .empty())
      << "a lower-case thinking level is not the documented enum";
  EXPECT_TRUE(
      testing::PublishedSchemaIssues(
          "ollama", R"({"model":"m","messages":[{"role":"tool","content":"r","tool_name":"t"}]})")
          .empty());
}

}  // namespace
}  // namespace structure::providers
