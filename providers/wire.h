// Dispatch to the wire format of an endpoint's kind, so callers (the pool) need not switch.
#pragma once

#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/http.h"
#include "structure/status.h"

namespace structure::providers {

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint);
Result<ProviderReply> ParseReply(ProviderKind kind, const HttpResponse& response);

// The Status a reply means for a caller that needs a complete answer: ok for kStop and
// kToolUse; kFailedPrecondition for refusal, safety block and truncation (message says which).
Status FinishStatus(const ProviderReply& reply);

// Tokens a request will likely cost, for the tokens/min bucket: prompt bytes / 4 plus the
// output budget.
int64_t EstimateTokens(const HttpRequest& request, int64_t max_tokens);

}  // namespace structure::providers
