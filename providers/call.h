// Plain structs shared by every wire format: one provider call (what to ask) and one provider
// reply (what came back). No I/O and no provider specifics here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "base/json.h"
#include "base/shared_json.h"

namespace structure::providers {

struct ToolCall {
  std::string id;         // provider call id; synthesised when the provider has none
  std::string name;
  std::string arguments;  // JSON text of the arguments object
};

enum class Role { kUser, kAssistant, kTool };

// One conversation turn. A user turn has text; an assistant turn has text and/or tool calls;
// a tool turn is the result of one earlier tool call.
struct Turn {
  Role role = Role::kUser;
  std::string text;
  std::vector<ToolCall> tool_calls;  // assistant only
  std::string tool_call_id;          // tool only: the call answered
  std::string tool_name;             // tool only: its tool name
  bool is_error = false;             // tool only: the call was rejected
};

// How the model may say "the input lacks what the schema needs".
enum class NeedChannel {
  kNone,
  kEnvelope,  // already part of `schema` (e.g. an envelope object); nothing extra is sent
  kTool,      // a second tool (need_tool_name, need_schema) offered next to the answer
};

struct ProviderCall {
  std::string model;
  std::string system;                // system prompt; may be empty
  std::vector<Turn> turns;

  // The (lowered) schema to enforce; null = plain JSON mode. Shared with the plan it comes
  // from, so a call in flight holds no copy of it.
  SharedJson schema;
  std::string schema_name = "result";
  bool strict = true;

  NeedChannel need = NeedChannel::kNone;
  std::string need_tool_name = "need_more_input";
  SharedJson need_schema;            // for kTool

  // Final-tool mode: the answer is the arguments of this tool (schema = its parameters).
  bool final_tool = false;
  std::string final_tool_name = "submit";
  std::string final_tool_description = "Submit the final answer.";

  int64_t max_tokens = 1024;
  std::optional<double> temperature;

  // Prompt caching (providers/prompt_cache.h). The system prompt and the schemas are the same on
  // every call on a schema; `cache_key` names that prefix so the provider routes such calls to
  // one cache (OpenAI prompt_cache_key; empty = none), and a provider that caches only what is
  // marked (Anthropic cache_control) marks the system prompt when the prefix has at least
  // `cache_min_tokens` tokens (0 = the model's documented minimum, < 0 = never).
  std::string cache_key;
  int64_t cache_min_tokens = 0;
};

enum class FinishKind {
  kStop,       // complete answer
  kLength,     // cut off by max_tokens: content is truncated
  kRefusal,    // the model declined (refusal text in ProviderReply::refusal)
  kSafety,     // blocked by a safety / content filter
  kToolUse,    // the answer is in tool_calls
};

// Token counts as the provider reports them. input_tokens is every prompt token of the call,
// cached ones included; the cache counts say how many of them were read from the provider's
// prompt cache and how many were written to it (Anthropic bills writes at a premium).
struct Usage {
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cached_input_tokens = 0;  // cache reads, part of input_tokens
  int64_t cache_write_tokens = 0;   // cache writes (Anthropic cache creation), part of input_tokens
};

// Sums every count of `b` into `a` (a request's usage over its calls).
inline Usage& operator+=(Usage& a, const Usage& b) {
  a.input_tokens += b.input_tokens;
  a.output_tokens += b.output_tokens;
  a.cached_input_tokens += b.cached_input_tokens;
  a.cache_write_tokens += b.cache_write_tokens;
  return a;
}

struct ProviderReply {
  std::string content;               // concatenated text parts
  std::vector<ToolCall> tool_calls;
  FinishKind finish = FinishKind::kStop;
  std::string refusal;               // refusal or block explanation, when given
  Usage usage;
  std::string model;                 // model that answered, when reported
};

std::string_view FinishKindName(FinishKind kind);

}  // namespace structure::providers
