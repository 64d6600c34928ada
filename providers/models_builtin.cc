// The built-in model table. Each row is the fields of ApplyFamilyFields on top of its kind's
// default row (prefix ""), and names in `doc` the provider page its facts come from; the comments
// quote what decides a row. Re-check a row against its page when a provider answers 400.
#include "providers/models.h"

namespace structure::providers {
namespace {

struct Row {
  ProviderKind kind;
  const char* prefix;
  const char* fields;
};

constexpr ProviderKind kOpenAi = ProviderKind::kOpenAi;
constexpr ProviderKind kAnthropic = ProviderKind::kAnthropic;
constexpr ProviderKind kGemini = ProviderKind::kGemini;
constexpr ProviderKind kOllama = ProviderKind::kOllama;
constexpr ProviderKind kCompat = ProviderKind::kOpenAiCompat;
constexpr ProviderKind kOpenRouter = ProviderKind::kOpenRouter;

const Row kRows[] = {
    // OpenAI chat completions. A model the table does not know gets every level as configured.
    // max_completion_tokens is the cap every model takes (max_tokens is refused by reasoning
    // models); prompts of 1 024 tokens or more are cached.
    // Thinking goes off only where "none" is a level.
    {kOpenAi, "", R"({"efforts": ["none", "minimal", "low", "medium", "high", "xhigh", "max"],
       "thinking_off": false, "cap_field": "max_completion_tokens", "replay": "none", "cache_min_tokens": 1024,
       "doc": "https://platform.openai.com/docs/api-reference/chat/create"})"},
    // Not reasoning models: reasoning_effort is "Unsupported parameter" (400).
    // Context windows from the same pages: 128 000 tokens for gpt-4o, 1 047 576 for gpt-4.1.
    {kOpenAi, "gpt-4o", R"({"efforts": [], "output_cap": 16384, "context_window": 128000,
       "doc": "https://platform.openai.com/docs/models/gpt-4o"})"},
    {kOpenAi, "gpt-4.1", R"({"efforts": [], "output_cap": 32768, "context_window": 1047576,
       "doc": "https://platform.openai.com/docs/models/gpt-4.1"})"},
    {kOpenAi, "gpt-4", R"({"efforts": [],
       "doc": "https://platform.openai.com/docs/models/gpt-4-turbo"})"},
    // o-series: low, medium, high; "Unsupported parameter" for parallel_tool_calls, temperature
    // and top_p (only the default 1). o3 covers o3-mini; o1-mini and o1-preview take no effort.
    {kOpenAi, "o1", R"({"efforts": ["low", "medium", "high"], "thinks_by_default": true,
       "parallel_tool_calls": false, "temperature": false, "top_p": false, "output_cap": 100000,
       "doc": "https://platform.openai.com/docs/guides/reasoning"})"},
    {kOpenAi, "o1-mini", R"({"like": "o1", "efforts": [], "output_cap": 65536,
       "doc": "https://platform.openai.com/docs/guides/reasoning"})"},
    {kOpenAi, "o1-preview", R"({"like": "o1", "efforts": [], "output_cap": 32768,
       "doc": "https://platform.openai.com/docs/guides/reasoning"})"},
    {kOpenAi, "o3", R"({"like": "o1", "doc": "https://platform.openai.com/docs/models/o3"})"},
    {kOpenAi, "o4-mini", R"({"like": "o1",
       "doc": "https://platform.openai.com/docs/models/o4-mini"})"},
    // "All models before gpt-5.1 default to medium reasoning effort, and do not support none";
    // gpt-5 adds minimal. Sampling parameters are not supported by reasoning models; parallel
    // tool calls are.
    {kOpenAi, "gpt-5", R"({"efforts": ["minimal", "low", "medium", "high"],
       "thinks_by_default": true, "temperature": false, "top_p": false, "output_cap": 128000,
       "doc": "https://platform.openai.com/docs/api-reference/chat/create#chat-create-reasoning_effort"})"},
    // "gpt-5.1 defaults to none ... The supported reasoning values for gpt-5.1 are none, low,
    // medium, and high"; "xhigh is supported for all models after gpt-5.1-codex-max".
    {kOpenAi, "gpt-5.1", R"({"like": "gpt-5", "efforts": ["none", "low", "medium", "high"],
       "thinks_by_default": false,
       "doc": "https://platform.openai.com/docs/api-reference/chat/create#chat-create-reasoning_effort"})"},
    // gpt-5.2 to 5.4 default to none as 5.1 does ("The default none provides fast, low-latency
    // responses"); "gpt-5.5 defaults to medium reasoning effort" (the reasoning guide), and so
    // does 5.6: from 5.5 on the models reason unless told "none", so their default cap leaves
    // room for it. A later release the table does not name yet is taken for one of these.
    // gpt-5.2 and later: "Function tools with reasoning_effort are not supported for gpt-5.4 in
    // /v1/chat/completions. Please use /v1/responses instead" (400): the Responses API.
    {kOpenAi, "gpt-5.", R"({"like": "gpt-5", "api": "responses",
       "efforts": ["none", "low", "medium", "high", "xhigh"], "thinks_by_default": true,
       "doc": "https://developers.openai.com/api/docs/guides/reasoning#reasoning-effort"})"},
    {kOpenAi, "gpt-5.2", R"({"like": "gpt-5.", "thinks_by_default": false,
       "doc": "https://platform.openai.com/docs/api-reference/chat/create#chat-create-reasoning_effort"})"},
    {kOpenAi, "gpt-5.3", R"({"like": "gpt-5.2",
       "doc": "https://platform.openai.com/docs/api-reference/chat/create#chat-create-reasoning_effort"})"},
    {kOpenAi, "gpt-5.4", R"({"like": "gpt-5.2",
       "doc": "https://platform.openai.com/docs/api-reference/chat/create#chat-create-reasoning_effort"})"},
    // "The gpt-5-pro model defaults to (and only supports) high reasoning effort."
    {kOpenAi, "gpt-5-pro", R"({"like": "gpt-5", "efforts": ["high"],
       "doc": "https://platform.openai.com/docs/api-reference/chat/create#chat-create-reasoning_effort"})"},

    // Anthropic messages. A model the table does not know is taken for a newer one: adaptive
    // thinking with output_config.effort, which is all Opus 4.7 and later take. Thinking blocks
    // go back first and unchanged; the system prompt is marked for the cache.
    // Thinking is turned off by leaving `thinking` out (the newer models refuse type
    // "disabled"). Structured outputs (output_config.format, strict tools) are documented for
    // the 4.5 models and later.
    {kAnthropic, "", R"({"efforts": ["low", "medium", "high", "xhigh", "max"],
       "replay": "blocks", "cap_field": "max_tokens", "cache_control": true,
       "cache_min_tokens": 1024, "context_window": 200000, "off_by_omission": true,
       "structured_outputs_doc": "Anthropic documents them for Claude Sonnet 4.5, Opus 4.5, Haiku 4.5 and later, Opus 4.1 in beta only: https://platform.claude.com/docs/en/build-with-claude/structured-outputs",
       "doc": "https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking"})"},
    // Claude 3 (except 3.7 Sonnet) does not think. Minimum cacheable prompt: 2 048 for the Haiku
    // models, 1 024 for the others.
    {kAnthropic, "claude-3-haiku",
     R"({"efforts": [], "reports_thinking_tokens": false, "structured_outputs": false, "output_cap": 4096,
       "cache_min_tokens": 2048,
       "doc": "https://platform.claude.com/docs/en/about-claude/models/overview"})"},
    {kAnthropic, "claude-3-opus",
     R"({"efforts": [], "reports_thinking_tokens": false, "structured_outputs": false, "output_cap": 4096,
       "doc": "https://platform.claude.com/docs/en/about-claude/models/overview"})"},
    {kAnthropic, "claude-3-5-haiku",
     R"({"efforts": [], "reports_thinking_tokens": false, "structured_outputs": false, "output_cap": 8192,
       "cache_min_tokens": 2048,
       "doc": "https://platform.claude.com/docs/en/about-claude/models/overview"})"},
    {kAnthropic, "claude-3-5-sonnet",
     R"({"efforts": [], "reports_thinking_tokens": false, "structured_outputs": false, "output_cap": 8192,
       "doc": "https://platform.claude.com/docs/en/about-claude/models/overview"})"},
    // "Older models (Claude Sonnet 4.5, Claude Opus 4.5, etc.) do not support adaptive thinking
    // and require thinking.type: enabled with budget_tokens" (>= 1024, below max_tokens). An
    // effort level is sent as a budget. claude-opus-4 covers Opus 4.1.
    {kAnthropic, "claude-3-7-sonnet",
     R"({"efforts": [], "reports_thinking_tokens": false, "structured_outputs": false,
       "off_by_omission": false, "budget_min": 1024,
       "budget_max": 63999, "output_cap": 64000,
       "doc": "https://platform.claude.com/docs/en/build-with-claude/extended-thinking"})"},
    {kAnthropic, "claude-sonnet-4", R"({"like": "claude-3-7-sonnet",
       "doc": "https://platform.claude.com/docs/en/build-with-claude/extended-thinking"})"},
    {kAnthropic, "claude-opus-4", R"({"like": "claude-3-7-sonnet", "budget_max": 31999,
       "output_cap": 32000,
       "doc": "https://platform.claude.com/docs/en/build-with-claude/extended-thinking"})"},
    // Opus 4.1 has structured outputs only behind a beta header: the prompted path, as Opus 4.
    {kAnthropic, "claude-opus-4-1", R"({"like": "claude-opus-4",
       "doc": "https://platform.claude.com/docs/en/build-with-claude/structured-outputs"})"},
    {kAnthropic, "claude-sonnet-4-5", R"({"like": "claude-3-7-sonnet", "structured_outputs": true,
       "doc": "https://platform.claude.com/docs/en/build-with-claude/extended-thinking"})"},
    {kAnthropic, "claude-haiku-4-5",
     R"({"like": "claude-3-7-sonnet", "structured_outputs": true, "cache_min_tokens": 4096,
       "doc": "https://platform.claude.com/docs/en/build-with-claude/extended-thinking"})"},
    {kAnthropic, "claude-opus-4-5",
     R"({"like": "claude-3-7-sonnet", "structured_outputs": true, "cache_min_tokens": 4096,
       "doc": "https://platform.claude.com/docs/en/build-with-claude/extended-thinking"})"},
    // Opus and Sonnet 4.6 take adaptive thinking (max, no xhigh) and, deprecated, budget_tokens.
    // Opus 4.6: 128K output.
    {kAnthropic, "claude-opus-4-6", R"({"efforts": ["low", "medium", "high", "max"],
       "off_by_omission": false,
       "budget_min": 1024, "budget_max": 127999, "output_cap": 128000, "cache_min_tokens": 4096,
       "doc": "https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking"})"},
    {kAnthropic, "claude-sonnet-4-6", R"({"efforts": ["low", "medium", "high", "max"],
       "off_by_omission": false,
       "budget_min": 1024, "budget_max": 63999, "output_cap": 64000,
       "doc": "https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking"})"},
    // "Claude Opus 4.7 and Claude Mythos Preview only support adaptive thinking": budget_tokens
    // is a 400 ("thinking.type.enabled" is not supported for this model), and so is type
    // "disabled": thinking is off when `thinking` is left out (off_by_omission, from the default
    // row). xhigh from Opus 4.7 on, not on Mythos Preview, which thinks when `thinking` is absent
    // and cannot be turned off. Fable 5 always thinks (type disabled is refused).
    {kAnthropic, "claude-opus-4-7", R"({"output_cap": 128000,
       "doc": "https://platform.claude.com/docs/en/build-with-claude/effort"})"},
    {kAnthropic, "claude-mythos-preview", R"({"efforts": ["low", "medium", "high", "max"],
       "thinking_off": false, "thinks_by_default": true,
       "doc": "https://platform.claude.com/docs/en/build-with-claude/effort"})"},
    {kAnthropic, "claude-fable-5", R"({"thinking_off": false,
       "doc": "https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking"})"},

    // Gemini generateContent. A model the table does not know is taken for a Gemini 3 one:
    // thinkingLevel, and thinking cannot be turned off. Every part goes back with its
    // thoughtSignature; Gemini 3 refuses a function call replayed without one, 2.5 does not
    // check (ai.google.dev/gemini-api/docs/thought-signatures).
    {kGemini, "", R"({"efforts": ["minimal", "low", "medium", "high"], "thinking_off": false,
       "thinks_by_default": true, "replay": "signatures-checked", "cap_field": "maxOutputTokens",
       "cache_min_tokens": 4096, "doc": "https://ai.google.dev/gemini-api/docs/thinking"})"},
    // 2.0 does not think: a thinkingConfig is "thinking_config is not supported" (400).
    {kGemini, "gemini-2.0-flash", R"({"efforts": [], "thinks_by_default": false,
       "replay": "none", "output_cap": 8192, "doc": "https://ai.google.dev/gemini-api/docs/models"})"},
    // "Gemini 2.5 series models don't support thinkingLevel; use thinkingBudget instead":
    // 2.5 Pro 128..32768, cannot be turned off; 2.5 Flash 0..24576; 2.5 Flash-Lite 512..24576,
    // does not think by default; -1 is dynamic. Effort levels go as Google's budgets.
    {kGemini, "gemini-2.5-pro", R"({"efforts": [], "budget_min": 128, "budget_max": 32768,
       "dynamic_budget": true, "replay": "signatures", "output_cap": 65536, "cache_min_tokens": 2048,
       "context_window": 1048576,
       "doc": "https://ai.google.dev/gemini-api/docs/thinking#set-budget"})"},
    {kGemini, "gemini-2.5-flash", R"({"like": "gemini-2.5-pro", "budget_min": 1,
       "budget_max": 24576, "thinking_off": true,
       "doc": "https://ai.google.dev/gemini-api/docs/thinking#set-budget"})"},
    {kGemini, "gemini-2.5-flash-lite", R"({"like": "gemini-2.5-flash", "budget_min": 512,
       "thinks_by_default": false,
       "doc": "https://ai.google.dev/gemini-api/docs/thinking#set-budget"})"},
    // "You cannot disable thinking for Gemini 3 Pro"; 3 Pro takes LOW and HIGH, 3 Flash MINIMAL,
    // LOW, MEDIUM and HIGH (upper case on the wire).
    {kGemini, "gemini-3-pro", R"({"efforts": ["low", "high"], "output_cap": 65536,
       "doc": "https://ai.google.dev/gemini-api/docs/thinking#thinking-levels"})"},
    {kGemini, "gemini-3-flash", R"({"output_cap": 65536,
       "doc": "https://ai.google.dev/gemini-api/docs/thinking#thinking-levels"})"},

    // Ollama /api/chat: `think` is true or false for the thinking models and a level for
    // gpt-oss (which ignores true and false); a model without thinking answers 400 ("\"llama3.1\"
    // does not support thinking"), and a level to one that takes only true or false is "think
    // value \"medium\" is not supported for this model". So a model the table does not know is
    // sent no `think` (a config row names a thinking model: [model_families.ollama."<prefix>"]),
    // and a level is checked at config check. "Thinking is enabled by default in the CLI and API
    // for supported models."
    {kOllama, "", R"({"efforts": [], "cap_field": "num_predict",
       "doc": "https://docs.ollama.com/capabilities/thinking"})"},
    {kOllama, "gpt-oss", R"({"efforts": ["low", "medium", "high"], "thinking_off": false,
       "thinks_by_default": true, "doc": "https://docs.ollama.com/capabilities/thinking"})"},
    {kOllama, "qwen3", R"({"efforts": [], "on_off": true, "thinks_by_default": true,
       "doc": "https://docs.ollama.com/capabilities/thinking"})"},
    // Qwen3-Coder does not think ("qwen3-coder-next" does not support thinking).
    {kOllama, "qwen3-coder", R"({"on_off": false, "thinks_by_default": false,
       "doc": "https://ollama.com/library/qwen3-coder"})"},
    {kOllama, "deepseek-r1", R"({"like": "qwen3",
       "doc": "https://docs.ollama.com/capabilities/thinking"})"},
    {kOllama, "deepseek-v3.1", R"({"like": "qwen3",
       "doc": "https://docs.ollama.com/capabilities/thinking"})"},

    // OpenAI-compatible servers (vLLM, llama.cpp, llamafile): whatever they loaded; every level
    // is sent as configured, the cap as max_tokens.
    {kCompat, "", R"({"efforts": ["none", "minimal", "low", "medium", "high", "xhigh", "max"],
       "cap_field": "max_tokens",
       "doc": "https://docs.vllm.ai/en/latest/serving/openai_compatible_server.html"})"},

    // OpenRouter translates reasoning {effort | max_tokens} for each upstream; a "vendor/model"
    // name takes the rest of its parameters from the vendor's rows above.
    {kOpenRouter, "", R"({"efforts": ["none", "minimal", "low", "medium", "high", "xhigh"],
       "budget_min": 1, "budget_max": 1000000, "cap_field": "max_tokens",
       "cache_min_tokens": 1024,
       "doc": "https://openrouter.ai/docs/use-cases/reasoning-tokens"})"},
};

}  // namespace

Status AddBuiltinRows(std::vector<ModelFamily>& rows) {
  for (const Row& r : kRows) {
    ModelFamily f;
    f.kind = r.kind;
    auto fields = ParseJson(r.fields);
    if (!fields.ok())
      return InvalidArgument(std::string(r.prefix) + ": " + fields.status().message());
    // The kind's default row, or the row `like` names, is the starting point.
    std::string from;
    if (const Json* like = fields->find("like"); like && like->is_string())
      from = like->as_string();
    if (*r.prefix != '\0') {
      for (const ModelFamily& earlier : rows) {
        if (earlier.kind == r.kind && earlier.prefix == from) f = earlier;
      }
    }
    f.prefix = r.prefix;
    Status st = ApplyFamilyFields(f, *fields);
    if (!st.ok()) return InvalidArgument("\"" + f.prefix + "\"." + st.message());
    rows.push_back(std::move(f));
  }
  return Status::Ok();
}

}  // namespace structure::providers
