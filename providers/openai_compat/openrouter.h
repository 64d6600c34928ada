// OpenRouter: OpenAI-style chat completions with provider.require_parameters = true, so a
// request is never routed to an endpoint that ignores response_format or tools.
#pragma once

#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/http.h"
#include "structure/status.h"

namespace structure::providers::openrouter {

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint);
// Also maps errors OpenRouter embeds in a 200 body ({"error": {"code": 429, ...}}).
Result<ProviderReply> ParseReply(const HttpResponse& response);

}  // namespace structure::providers::openrouter
