// The Responses API request (POST /v1/responses) as the official OpenAI SDKs send it
// (`responses.create`, `responses.parse` with text_format, the Agents SDK), checked and reduced
// to the same ChatRequest a Chat Completions request becomes: `input` (a string, or message and
// function-call items) the conversation, `instructions` and system/developer items the manual,
// text.format (json_schema, json_object) or a forced function tool the schema. Every refusal
// names the field ("input[2].content[0]", "text.format.schema"). Pure.
#pragma once

#include <variant>

#include "base/json.h"
#include "server/openai/chat_request.h"
#include "server/openai/openai_error.h"

namespace structure::server::openai {

// Fields that change nothing here (store, metadata, truncation, ...) are checked for their type
// and ignored; a background run, previous_response_id / conversation (nothing is
// stored here), image, audio or file inputs and non-function tools are refused naming the field,
// as is a field the API does not know. The schema moves out of `body`.
std::variant<ChatRequest, ApiError> ParseResponsesRequest(Json body, const ChatLimits& limits);

}  // namespace structure::server::openai
