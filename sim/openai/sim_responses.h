// OpenAI's Responses API (POST /v1/responses) as the simulator serves it, next to chat
// completions in the OpenAI dialect (sim_openai.cc). Shapes: CreateResponse and Response of
// github.com/openai/openai-openapi (tests/data/request_schemas/openai_responses.json).
//
// Reasoning items: a reply of a model that thought holds a reasoning item rs_X, and its message
// and function_call items are msg_rX and fc_rX; with include ["reasoning.encrypted_content"] the
// reasoning item carries encrypted_content. Sent back as input (nothing is stored here, as with
// store: false), a reasoning item needs that encrypted_content, unchanged, and the item that
// followed it; an fc_rX or msg_rX item needs its reasoning item before it. Each is refused with
// OpenAI's 400 otherwise.
#pragma once

#include "base/json.h"
#include "http/http_message.h"
#include "sim/chat.h"
#include "structure/status.h"

namespace structure::sim {

inline constexpr std::string_view kResponsesPath = "/v1/responses";

// The request as the API checks it; kInvalidArgument with OpenAI's message.
Result<ChatRequest> ParseResponsesRequest(const Json& body);

// The 200 response object for an answer.
http::HttpResponse RenderResponses(const ChatRequest& request, const Answer& answer,
                                   const Usage& usage, uint64_t id_seed);

}  // namespace structure::sim
