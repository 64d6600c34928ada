// OpenAI chat completions (POST /v1/chat/completions). The schema goes into
// response_format {type: json_schema, strict}; final-tool mode and the need tool use strict
// function tools. The same code serves OpenAI-compatible servers and OpenRouter through a
// dialect (see openai_compat.h, openrouter.h).
#pragma once

#include <string_view>

#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/http.h"
#include "structure/status.h"

namespace structure::providers {

// Where an OpenAI-style server takes the schema of a schema-mode call.
enum class SchemaField {
  kResponseFormat,      // response_format {type: json_schema, json_schema: {name, schema}}
  kJsonObjectSchema,    // response_format {type: json_object, schema} (llamafile)
  kTopLevelJsonSchema,  // json_schema: <schema> next to the messages (llama.cpp server)
};

// The few places where OpenAI-style servers differ.
struct OpenAiDialect {
  std::string_view provider = "openai";  // for messages
  bool require_parameters = false;       // OpenRouter: provider.require_parameters = true
  bool strict = true;                    // send strict: true with schemas and tools
  bool reasoning_object = false;         // OpenRouter: reasoning {effort | max_tokens}
  bool prompt_cache_key = true;          // send call.cache_key as prompt_cache_key (OpenAI only)
  SchemaField schema_field = SchemaField::kResponseFormat;
};

// kInvalidArgument when the call is incomplete (no model, no turns, final-tool mode or need
// tool without a schema).
Result<HttpRequest> BuildOpenAiStyleRequest(const ProviderCall& call, const Endpoint& endpoint,
                                            const OpenAiDialect& dialect);

// Non-2xx and transport failures -> their Status (provider message included); a 2xx body
// without choices (or with an embedded error) -> kUnavailable or the embedded code.
Result<ProviderReply> ParseOpenAiStyleReply(const HttpResponse& response,
                                            const OpenAiDialect& dialect);

namespace openai_chat {
// OpenAI's own: a call whose API is the Responses API (ApiFor, providers/models.h) is built by
// openai_responses.h; replies of either API are read.
Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint);
Result<ProviderReply> ParseReply(const HttpResponse& response);
}  // namespace openai_chat

}  // namespace structure::providers
