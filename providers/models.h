// One model table: per provider kind, the model families (matched by model-name prefix, the
// longest prefix wins) with the parameters each takes. Every request builder reads it; no wire
// format checks a model name on its own. Config adds rows or changes them without a rebuild
// ([model_families.<kind>."<prefix>"], docs/providers.md "The model table"); `structure providers
// --models` shows it. The built-in rows and the provider pages they come from are in
// models_builtin.cc.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "providers/call.h"
#include "providers/endpoint.h"
#include "structure/status.h"

namespace structure::providers {

// What a reply's reasoning must look like when its turn is sent back.
enum class ThinkingReplay {
  kNone,               // not replayable (OpenAI chat completions): the reasoning is not sent back
  kBlocks,             // Anthropic: thinking / redacted_thinking blocks first and unchanged
  kSignatures,         // Gemini 2.5: every part with its thoughtSignature as received
  kSignaturesChecked,  // Gemini 3: the same, and a function call without its signature is a 400
};

struct ModelFamily {
  ProviderKind kind = ProviderKind::kOpenAi;  // whose list (OpenAI-compatible servers share one)
  std::string prefix;  // matched against the model name; "" = the kind's default row
  std::string doc;     // the provider page the row comes from
  bool from_config = false;

  // Thinking. `as_asked`: every level and budget goes out as configured (a kind's default row,
  // for models the table does not know). Otherwise `efforts` are the levels the family takes as
  // such (our spelling: none, minimal, low, medium, high, xhigh, max; the wire format spells
  // them), a budget in budget_min..budget_max is taken when budget_max > 0 (an effort level the
  // family does not take as a level is then sent as a budget, EffortBudget), -1 when
  // `dynamic_budget`; `on_off`: any level means "think" (Ollama's think: true).
  bool as_asked = false;
  std::vector<std::string> efforts;
  int64_t budget_min = 0;
  int64_t budget_max = 0;
  bool dynamic_budget = false;
  bool on_off = false;
  bool thinking_off = true;  // thinking can be turned off (effort none, budget 0)
  // Thinking is turned off by leaving the thinking parameter out, not by sending "off": Claude
  // Opus 4.7 and later refuse thinking {type: "disabled"} and do not think when it is absent.
  bool off_by_omission = false;
  bool thinks_by_default = false;
  // The reply counts the thinking tokens on their own (Anthropic's
  // usage.output_tokens_details.thinking_tokens; the releases before 4.6 leave it out).
  bool reports_thinking_tokens = true;
  ThinkingReplay replay = ThinkingReplay::kNone;

  // OpenAI: the API its calls go to unless the provider's config says (`api`): chat
  // completions, or the Responses API for the families that refuse function tools with
  // reasoning on chat completions.
  OpenAiApi api = OpenAiApi::kChat;

  // Request parameters the family takes.
  bool parallel_tool_calls = true;
  bool temperature = true;
  bool top_p = true;
  std::string cap_field;  // the output cap's field ("max_completion_tokens", "max_tokens", ...)
  int64_t output_cap =
      0;  // the most output tokens the model writes, thinking included; 0 = unknown
  // The context window: the most tokens of one request, input and output cap together; 0 =
  // unknown (a longer input is then split only once the provider refuses it as too long, and
  // the window it states is learned: docs/engine.md "Long documents").
  int64_t context_window = 0;

  // Structured outputs: the provider enforces a JSON schema for this model (Anthropic's
  // output_config.format and strict tools, documented for the 4.5 models and later). Without
  // them the schema goes in the prompt and the answer is validated locally (the result's
  // modeReason says so); the schema's doc page is `structured_outputs_doc`.
  bool structured_outputs = true;
  std::string structured_outputs_doc;

  // Prompt caching: explicit cache_control marks (Claude), and the documented minimum cacheable
  // prefix in tokens (0 = no prompt cache).
  bool cache_control = false;
  int64_t cache_min_tokens = 0;
};

// How one call asks for thinking on the wire, after the family has been consulted.
struct WireThinking {
  enum class Form {
    kUnset,   // nothing is sent: the model's default
    kOff,     // turned off (Anthropic disabled, Gemini budget 0, Ollama think false)
    kOn,      // on, no level (Ollama think true)
    kLevel,   // `level` (OpenAI reasoning_effort, Gemini thinkingLevel, Anthropic adaptive effort)
    kBudget,  // `budget` tokens (Anthropic budget_tokens, Gemini thinkingBudget, -1 dynamic)
  };
  Form form = Form::kUnset;
  std::string level;
  int64_t budget = 0;
  bool on() const { return form == Form::kOn || form == Form::kLevel || form == Form::kBudget; }
};

// Every thinking level a config may name, in increasing order.
const std::vector<std::string>& ThinkingLevels();

// The budget an effort level stands for at a family that takes budgets: Gemini by Google's
// OpenAI-compatibility mapping (minimal and low 1024, medium 8192, high 24576, more 32768),
// others by ThinkingAllowance; clamped to the family's range.
int64_t EffortBudget(const ModelFamily& family, std::string_view effort);

// What `thinking` becomes for `model` of `family`; kInvalidArgument naming the model, what it
// takes and what was asked when the family does not take it ("gemini-3-pro-preview takes
// reasoning_effort low or high, not 'minimal'").
Result<WireThinking> ResolveThinking(const ModelFamily& family, std::string_view model,
                                     const Thinking& thinking);

// A change to the table from config: `fields` (an object whose keys are those of
// ApplyFamilyFields) on top of the row `like` names, else the row the prefix itself falls into.
struct FamilyOverride {
  ProviderKind kind = ProviderKind::kOpenAi;
  std::string prefix;
  Json fields;
};

// Sets the fields of `family` named in `fields`: api ("chat" or "responses", OpenAI's rows
// only), efforts (array of levels), budget_min, budget_max, dynamic_budget, on_off,
// thinking_off, off_by_omission, thinks_by_default, reports_thinking_tokens, structured_outputs,
// structured_outputs_doc, replay ("none", "blocks",
// "signatures", "signatures-checked"), parallel_tool_calls, temperature, top_p, cap_field,
// output_cap, context_window, cache_control, cache_min_tokens, doc, like (handled by the table).
// kInvalidArgument
// "<key>: <what is wrong>" for an unknown key or a bad value.
Status ApplyFamilyFields(ModelFamily& family, const Json& fields);

class ModelTable {
 public:
  // The built-in rows (models_builtin.cc).
  static std::shared_ptr<const ModelTable> Builtin();
  // The built-in rows with `overrides` applied in order; errors say which override:
  // "<kind>.\"<prefix>\".<key>: <what>".
  static Result<std::shared_ptr<const ModelTable>> WithOverrides(
      const std::vector<FamilyOverride>& overrides);

  // The family of `model` at a provider of `kind`: the row of kind.families with the longest
  // prefix of the model name ("models/" dropped; for Anthropic '.' and '-' are the same, so
  // OpenRouter's "claude-sonnet-4.5" is "claude-sonnet-4-5"), else the kind's default row.
  // OpenRouter routes "vendor/model" to the vendor's list (openai, anthropic, google) with its
  // own cap field and thinking (it translates levels and budgets itself), unless a config row
  // of the openrouter list names the model.
  ModelFamily Find(ProviderKind kind, std::string_view model) const;

  const std::vector<ModelFamily>& rows() const { return rows_; }

  explicit ModelTable(std::vector<ModelFamily> rows) : rows_(std::move(rows)) {}

 private:
  const ModelFamily* Match(ProviderKind list, std::string_view model) const;
  std::vector<ModelFamily> rows_;
};

// The family of a call's model at `endpoint` (its table, else the built-in one).
ModelFamily FamilyFor(const Endpoint& endpoint, std::string_view model);

// Why a call to `model` of `family` is not asked for strict output although its provider's
// profile enforces schemas ("claude-sonnet-4-20250514 has no structured outputs ..."), or empty
// when the family has them.
std::string NoStructuredOutputsReason(const ModelFamily& family, std::string_view model);

// The API a call of `model` at an OpenAI `endpoint` goes to: the endpoint's `api` when set,
// else the family's.
OpenAiApi ApiFor(const Endpoint& endpoint, std::string_view model);

// Appends the built-in rows (models_builtin.cc) to `rows`; an error names a row that does not
// apply (ModelTableTest checks there is none).
Status AddBuiltinRows(std::vector<ModelFamily>& rows);

// A row as `structure providers --models --json` shows it.
Json FamilyToJson(const ModelFamily& family);

}  // namespace structure::providers
