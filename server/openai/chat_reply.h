// The answer of the OpenAI-compatible endpoint: a chat.completion, or for stream: true the
// chat.completion.chunk events the SDKs read (the validated object whole in one delta, then the
// finish reason, the usage when asked, then [DONE]). Pure functions of a StructureResult.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "base/json.h"
#include "pipeline/result.h"
#include "providers/call.h"
#include "server/openai/chat_request.h"
#include "server/openai/openai_error.h"

namespace structure::server::openai {

// What the answer repeats from the request, and its identity.
struct ReplyContext {
  std::string id;         // "chatcmpl-..."
  int64_t created = 0;    // Unix seconds
  std::string model;      // as the request named it
  std::string tool_name;  // a forced tool's name: the answer is a call of it
  NeedAs need = NeedAs::kRefusal;
  bool include_usage = false;  // stream: the usage chunk before [DONE]
};

// The error a result is answered with, or nullopt when it is a completion: ok, or
// need-more-input as a refusal (NeedAs::kRefusal).
std::optional<ApiError> ResultError(const pipeline::StructureResult& result,
                                    const ReplyContext& context, const std::string& schema_param);

// OpenAI's usage object as compact JSON text, appended to `out`: prompt/completion/total tokens
// summed over every call of the request, with prompt_tokens_details.cached_tokens and
// completion_tokens_details.reasoning_tokens.
void AppendUsage(std::string& out, const providers::Usage& usage);

// The `structure` object beside the standard fields as compact JSON text, appended to `out`:
// status, iterations, schemaOrigin, mode, need, evidence, ungrounded.
void AppendStructure(std::string& out, const pipeline::StructureResult& result);

// The chat.completion (JSON text) of a result ResultError let through.
std::string CompletionJson(pipeline::StructureResult result, const ReplyContext& context);

// The whole event stream of such a result: "data: {chunk}\n\n" lines and "data: [DONE]\n\n".
std::string CompletionEvents(pipeline::StructureResult result, const ReplyContext& context);

// An error inside a stream already under way: one "data: {"error": ...}" event, which the SDKs
// raise as an APIError, then [DONE].
std::string ErrorEvent(const ApiError& error);

// A server-sent-events comment that keeps proxies from closing a quiet stream.
inline constexpr const char* kKeepAlive = ": keep-alive\n\n";

// A fresh completion id: "chatcmpl-" and 24 random hex digits. Thread-safe.
std::string NewCompletionId();

}  // namespace structure::server::openai
