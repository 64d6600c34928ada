// Ollama /api/chat (non-streaming). The schema goes into `format` (a JSON Schema object, or
// "json" for plain JSON mode); final-tool mode uses `tools`. Ollama has no refusal signal;
// done_reason "length" is a truncation.
#pragma once

#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/http.h"
#include "structure/status.h"

namespace structure::providers::ollama_chat {

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint);
// Errors ({"error":"text"}) -> Status.
Result<ProviderReply> ParseReply(const HttpResponse& response);

}  // namespace structure::providers::ollama_chat
