// Plain structs shared by every wire format: one provider call (what to ask) and one provider
// reply (what came back). No I/O and no provider specifics here.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/json.h"
#include "base/shared_json.h"
#include "structure/usage.h"

namespace structure::providers {

struct ToolCall {
  std::string id;  // provider call id; synthesised when the provider has none
  std::string name;
  std::string arguments;  // JSON text of the arguments object
  // An opaque token the provider attached to the call, replayed unchanged: Gemini's
  // thoughtSignature of the call's part, the id of OpenAI Responses' function_call item (fc_...).
  std::string signature;
};

// Reasoning a provider returned with a reply, kept so that the turn can be replayed the way the
// provider requires (Anthropic thinking blocks with their signatures, Gemini thought parts).
// Never taken as the answer.
struct Thought {
  std::string text;       // the thinking text, or a redacted block's opaque data
  std::string signature;  // the provider's signature of it (OpenAI Responses: encrypted_content)
  bool redacted = false;  // Anthropic redacted_thinking
  std::string id = {};    // OpenAI Responses: the reasoning item's id (rs_...)
};

// How much a reasoning model may think before it answers. Unset fields are not sent, so the
// provider's default applies (docs/providers.md lists the field each provider gets).
struct Thinking {
  std::string effort;             // OpenAI reasoning_effort, Anthropic adaptive effort, Gemini
                                  // thinkingLevel, Ollama think
  std::optional<int64_t> budget;  // Anthropic budget_tokens, Gemini thinkingBudget, OpenRouter
                                  // reasoning.max_tokens
  bool requested() const { return !effort.empty() || budget.has_value(); }
  // Asked to think at all ("none" and a zero budget turn thinking off).
  bool on() const { return (!effort.empty() && effort != "none") || (budget && *budget != 0); }
};

enum class Role { kUser, kAssistant, kTool };

// A file a user turn carries (a PDF, an image, a text file), sent before the turn's text in the
// provider's own part (docs/providers.md, "Files"). Shared: every call of a request sends the
// same bytes without copying them.
struct FilePart {
  std::string name;        // the file name the model sees for documents ("invoice.pdf")
  std::string media_type;  // "application/pdf", "image/png", ... (pipeline/files/media_type.h)
  std::shared_ptr<const std::string> data;  // the bytes
  // Sent instead of the bytes when set: a PDF's text layer (a provider that takes no documents,
  // or files_as text) or a text file's content, as the model reads it.
  std::shared_ptr<const std::string> text;
  int pages = 0;  // a PDF's page count (the token estimate)
};

// One conversation turn. A user turn has text; an assistant turn has text and/or tool calls;
// a tool turn is the result of one earlier tool call.
struct Turn {
  Role role = Role::kUser;
  std::string text;
  std::vector<ToolCall> tool_calls;  // assistant only
  std::string tool_call_id;          // tool only: the call answered
  std::string tool_name;             // tool only: its tool name
  bool is_error = false;             // tool only: the call was rejected
  std::vector<Thought> thoughts;     // assistant only: the reasoning that came with it
  // assistant only: an opaque token of the text part, replayed unchanged (Gemini's
  // thoughtSignature, the id of OpenAI Responses' message item)
  std::string text_signature;
  std::vector<FilePart> files;  // user only: sent before `text`
};

// A user turn holding `text`.
inline Turn UserTurn(std::string text) {
  Turn t;
  t.text = std::move(text);
  return t;
}

// How the model may say "the input lacks what the schema needs".
enum class NeedChannel {
  kNone,
  kEnvelope,  // already part of `schema` (e.g. an envelope object); nothing extra is sent
  kTool,      // a second tool (need_tool_name, need_schema) offered next to the answer
};

struct ProviderCall {
  std::string model;
  std::string system;  // system prompt; may be empty
  std::vector<Turn> turns;

  // The (lowered) schema to enforce; null = plain JSON mode. Shared with the plan it comes
  // from, so a call in flight holds no copy of it.
  SharedJson schema;
  std::string schema_name = "result";
  bool strict = true;

  NeedChannel need = NeedChannel::kNone;
  std::string need_tool_name = "need_more_input";
  SharedJson need_schema;  // for kTool

  // Final-tool mode: the answer is the arguments of this tool (schema = its parameters).
  bool final_tool = false;
  std::string final_tool_name = "submit";
  std::string final_tool_description = "Submit the final answer.";

  int64_t max_tokens = 1024;  // the output cap, thinking included
  // Sampling, sent where the provider takes it (unset: the provider's default).
  std::optional<double> temperature;
  std::optional<double> top_p;
  std::optional<int64_t> seed;
  std::string user;  // an id of the caller's end user (OpenAI user, Anthropic metadata.user_id)
  Thinking thinking;

  // Prompt caching (providers/prompt_cache.h). The system prompt and the schemas are the same on
  // every call on a schema; `cache_key` names that prefix so the provider routes such calls to
  // one cache (OpenAI prompt_cache_key; empty = none), and a provider that caches only what is
  // marked (Anthropic cache_control) marks the system prompt when the prefix has at least
  // `cache_min_tokens` tokens (0 = the model's documented minimum, < 0 = never).
  std::string cache_key;
  int64_t cache_min_tokens = 0;
};

enum class FinishKind {
  kStop,     // complete answer
  kLength,   // cut off by max_tokens: content is truncated
  kRefusal,  // the model declined (refusal text in ProviderReply::refusal)
  kSafety,   // blocked by a safety / content filter
  kToolUse,  // the answer is in tool_calls
};

// Token counts as the provider reports them (structure/usage.h).
using structure::Usage;

struct ProviderReply {
  std::string content;  // concatenated text parts
  std::vector<ToolCall> tool_calls;
  FinishKind finish = FinishKind::kStop;
  std::string refusal;  // refusal or block explanation, when given
  Usage usage;
  std::string model;              // model that answered, when reported
  std::vector<Thought> thoughts;  // reasoning returned with the answer (never the answer)
  std::string text_signature;     // as Turn::text_signature
};

std::string_view FinishKindName(FinishKind kind);

// The prompt tokens a call will likely cost, before it is sent: its text (system prompt, turns,
// tool calls, thoughts, schemas) at 4 bytes a token, the rule the tokens/min bucket uses too.
// A file sent as text counts its text; an image about 1,600 tokens (Anthropic's documented
// ceiling for one image) and a PDF that as much a page, its text layer included.
int64_t EstimatePromptTokens(const ProviderCall& call);

}  // namespace structure::providers
