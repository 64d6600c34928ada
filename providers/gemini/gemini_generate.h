// Gemini generateContent (POST /v1beta/models/{model}:generateContent). The schema goes into
// generationConfig.responseJsonSchema (or the legacy responseSchema when the endpoint asks);
// final-tool mode uses functionDeclarations with mode ANY. Gemini has no refusal field: a
// SAFETY-like finishReason or a blocked prompt is FinishKind::kSafety.
#pragma once

#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/http.h"
#include "structure/status.h"

namespace structure::providers::gemini_generate {

// kInvalidArgument when the call is incomplete or the model name holds URL-unsafe characters.
Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint);
// Errors ({"error":{"code","message","status"}}) -> Status.
Result<ProviderReply> ParseReply(const HttpResponse& response);

}  // namespace structure::providers::gemini_generate
