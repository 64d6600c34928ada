// The answer of POST /v1/responses: a `response` object whose output is one message holding the
// validated JSON as output_text (what responses.parse reads into output_parsed), its refusal for
// need-more-input, or the forced function's call; usage in the Responses shape summed over every
// call; for stream: true the events of the Responses API. Pure functions of a StructureResult.
#pragma once

#include <string>

#include "pipeline/result.h"
#include "server/openai/chat_reply.h"

namespace structure::server::openai {

// The response (JSON text) of a result ResultError let through; context.id is a "resp_" id.
std::string ResponseJson(pipeline::StructureResult result, const ReplyContext& context);

// The event stream of such a result, as responses.stream reads it: response.created and
// in_progress, the output item added, its text (or refusal, or arguments) in one delta and done,
// the item done, response.completed with the whole response.
std::string ResponseEvents(pipeline::StructureResult result, const ReplyContext& context);

// A fresh response id: "resp_" and 24 random hex digits. Thread-safe.
std::string NewResponseId();

}  // namespace structure::server::openai
