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
// The same for the request built from `call`: a file sent as its bytes counts as
// EstimatePromptTokens counts it (1 600 tokens an image or a PDF page), not as its base64.
int64_t EstimateTokens(const HttpRequest& request, const ProviderCall& call);

}  // namespace structure::providers
