// The provider-neutral view of one chat call inside the simulator: what a dialect parsed from
// the wire (ChatRequest) and what the simulator decided to answer (Answer).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/json.h"
#include "base/shared_json.h"
#include "http/http_message.h"
#include "structure/status.h"

namespace structure::sim {

enum class Provider { kOpenAi, kAnthropic, kGemini, kOllama };

// "openai", "anthropic", "gemini", "ollama".
std::string_view ProviderName(Provider provider);

struct ChatMessage {
  std::string role;  // "system", "user", "assistant" ("model" is mapped to "assistant"), "tool"
  std::string text;  // text parts joined with "\n"; tool calls/results as their JSON
  bool cache_breakpoint = false;  // Anthropic: a block of it carries cache_control
  size_t text_parts = 1;  // text parts in it (a client that drops an empty answer merges turns)
};

struct ToolSpec {
  std::string name;
  SharedJson schema;              // the parameters / input_schema (null when absent)
  bool cache_breakpoint = false;  // Anthropic: the tool carries cache_control
};

enum class OutputMode {
  kText,        // no structured output requested
  kJsonObject,  // JSON mode without a schema (json_object, Ollama "json")
  kJsonSchema,  // schema-constrained output (schema below)
  kTool,        // the answer is a tool call (tools present and a call is allowed)
};

// A schema the provider validates before answering; a rejection becomes a 400.
struct CheckedSchema {
  std::string profile;  // lowering profile name: "openai-strict", "anthropic-strict", ...
  std::string where;    // provider wording of its location, for the error message
  SharedJson schema;
};

// A parameter the requested model does not take, refused the way its provider refuses it
// (sim/model_checks.h): the status and message, and for OpenAI the `param` and `code` of its
// error body.
struct ParamRejection {
  int status = 400;
  std::string message;
  std::string param;
  std::string code;
};

struct ChatRequest {
  Provider provider = Provider::kOpenAi;
  std::string model;
  std::vector<ChatMessage> messages;  // system instructions first, when given
  OutputMode mode = OutputMode::kText;
  SharedJson schema;  // kJsonSchema
  std::vector<ToolSpec> tools;
  std::string forced_tool;            // a tool the request names explicitly, else ""
  std::optional<int64_t> max_tokens;  // output cap (max_tokens, maxOutputTokens, num_predict)
  bool stream = false;                // Ollama NDJSON streaming
  std::vector<CheckedSchema> checks;
  // Tokens the simulated model thinks before it answers (the request or the model asks for
  // thinking); 0 = none.
  int64_t thinking_tokens = 0;
  bool signatures = false;                 // Gemini: parts carry thoughtSignature
  std::string prompt_cache_key;            // OpenAI: the request's prompt_cache_key, if any
  bool responses_api = false;              // OpenAI: asked on /v1/responses, answered so
  bool encrypted_reasoning = false;        // Responses: include has reasoning.encrypted_content
  std::optional<ParamRejection> rejected;  // answered with the provider's error, not an answer

  // Texts used for matching and token estimates.
  std::string LastUser() const;
  std::string FirstUser() const;
  std::string System() const;
  std::string Conversation() const;  // "role: text" lines
  // How often this conversation has been asked: 1 + the assistant turns + the user text parts
  // beyond one per user turn (a re-ask whose empty answer the client left out).
  int Attempt() const;
};

// The form a dialect gives an answer, beyond the standard one: the variants real providers and
// compatible servers send (tests/data/providers/recorded/SOURCES.md). A dialect that has no
// such variant renders the standard form.
enum class ReplyShape {
  kStandard,
  kContentParts,      // OpenAI: message.content as Mistral's parts, a thinking part then the
                      // text, and usage without the details (Mistral reports none)
  kArgumentsMissing,  // OpenAI: a call without arguments has no `arguments` member (OpenRouter,
                      // Vertex-hosted Claude)
  kThinkingOnly,      // Ollama: the answer in message.thinking and content empty (a thinking
                      // model asked without `think`)
};

// "standard", "content_parts", "arguments_missing", "thinking_only"; kInvalidArgument listing
// them for anything else.
Result<ReplyShape> ParseReplyShape(std::string_view name);

struct SlowBody {
  size_t chunk_bytes = 0;  // 0 = not slow
  int delay_ms = 0;
};

struct Answer {
  enum class Kind {
    kContent,    // text content (possibly JSON, prose, malformed, truncated)
    kToolCall,   // a call of tool_name with tool_arguments
    kRefusal,    // the provider's decline signal with text
    kSafety,     // Gemini finishReason SAFETY (other providers: refusal)
    kHttpError,  // an HTTP error in the provider's shape
    kReset,      // TCP reset, no answer
  };
  Kind kind = Kind::kContent;
  std::string text;  // content, refusal text, or error message
  std::string tool_name;
  std::string tool_arguments;  // JSON text; a fault may make it malformed
  // kToolCall: further calls in the same reply, in order (name, arguments JSON text).
  std::vector<std::pair<std::string, std::string>> more_tool_calls;
  bool truncated = false;             // finish_reason length / max_tokens / MAX_TOKENS
  int64_t thinking_tokens = 0;        // spent thinking (counted in the output tokens)
  int status = 0;                     // kHttpError
  std::string error_type;             // optional override of the provider's error type
  std::vector<http::Header> headers;  // extra response headers
  std::optional<int> latency_ms;      // overrides the latency distribution
  SlowBody slow;
  ReplyShape shape = ReplyShape::kStandard;
  std::string source;               // "scenario:<rule>" or "generate"
  std::vector<std::string> faults;  // fault labels, counted in /stats
};

// input_tokens is the whole prompt; the cache counts are parts of it (sim/prompt_cache.h).
struct Usage {
  int64_t input_tokens = 0;
  int64_t output_tokens = 0;
  int64_t cached_input_tokens = 0;  // read from the prompt cache
  int64_t cache_write_tokens = 0;   // written to it (Anthropic only)
};

// The simulator's token estimate: ceil(bytes / 4), at least 1 for non-empty text.
int64_t EstimateTokens(std::string_view text);

// Input tokens of a request: messages plus the schema and tool definitions it carries.
int64_t EstimateInputTokens(const ChatRequest& request);

}  // namespace structure::sim
