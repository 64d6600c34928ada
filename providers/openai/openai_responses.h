// OpenAI's Responses API (POST /v1/responses), the API OpenAI's newer reasoning families need for
// function tools ("Function tools with reasoning_effort are not supported for gpt-5.4 in
// /v1/chat/completions. Please use /v1/responses instead"). Which calls take it: the provider's
// `api`, else the model table's `api` column (providers/models.h).
//
// Shapes from the OpenAPI document of github.com/openai/openai-openapi (CreateResponse, Response;
// tests/data/request_schemas/openai_responses.json) and openai-python's types/responses:
// - request: `instructions` (the system prompt), `input` items (user and assistant messages,
//   function_call and function_call_output items, reasoning items), `text.format` json_schema
//   {name, schema, strict}, function tools {type, name, description, parameters, strict},
//   `tool_choice` {type: function, name} | "required" | "auto", `reasoning.effort`,
//   `max_output_tokens`, `store: false` and, for reasoning families, `include:
//   ["reasoning.encrypted_content"]` so that reasoning items can be sent back without storage;
// - reply: `output` items (reasoning {id, summary, encrypted_content}, message {content:
//   output_text | refusal}, function_call {id, call_id, name, arguments}), `status` and
//   `incomplete_details.reason` (max_output_tokens -> a cut answer, content_filter -> blocked),
//   `usage` {input_tokens, input_tokens_details.cached_tokens, output_tokens,
//   output_tokens_details.reasoning_tokens}.
// Re-asks send the earlier reply's output items back as they came (reasoning with its
// encrypted_content, the message and function_call items with their ids), which is how the API
// keeps a reasoning model's chain across turns when nothing is stored.
#pragma once

#include <string_view>

#include "base/json.h"
#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/http.h"
#include "structure/status.h"

namespace structure::providers::openai_responses {

inline constexpr std::string_view kPath = "/v1/responses";

// kInvalidArgument when the call is incomplete (as chat completions).
Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint);

// Non-2xx and transport failures -> their Status; a 2xx body that is not a response object, or
// one whose status is "failed", -> kUnavailable (or the code its error names).
Result<ProviderReply> ParseReply(const HttpResponse& response);

// Whether a 2xx body's root is a Responses API response ({"object": "response", "output": [...]})
// rather than a chat completion.
bool IsResponseObject(const Json& root);

// The reply a response object (IsResponseObject) says.
Result<ProviderReply> ReplyFromTree(const Json& root);

}  // namespace structure::providers::openai_responses
