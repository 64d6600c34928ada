// OpenAI-compatible servers: vLLM, llama.cpp server, llamafile. Same chat-completions shape as
// OpenAI, but `max_tokens`, and the schema is enforced by the server's grammar backend
// (response_format json_schema), which may silently skip keywords: validate locally.
#pragma once

#include "base/status.h"
#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/http.h"

namespace structure::providers::openai_compat {

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint);
Result<ProviderReply> ParseReply(const HttpResponse& response);

}  // namespace structure::providers::openai_compat
