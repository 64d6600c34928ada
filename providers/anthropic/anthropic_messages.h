// Anthropic messages (POST /v1/messages). The schema goes into output_config.format
// (json_schema); final-tool mode and the need tool use strict tools with tool_choice.
// stop_reason "refusal" is a refusal, "max_tokens" a truncation.
#pragma once

#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/http.h"
#include "structure/status.h"

namespace structure::providers::anthropic_messages {

// kInvalidArgument when the call is incomplete.
Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint);
// Errors ({"type":"error","error":{"type","message"}}) -> Status; 529 overloaded is
// kUnavailable.
Result<ProviderReply> ParseReply(const HttpResponse& response);

}  // namespace structure::providers::anthropic_messages
