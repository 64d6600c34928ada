// OpenAI-compatible servers: vLLM, llama.cpp server, llamafile, and any other server that
// speaks chat completions. Same shape as OpenAI, but `max_tokens`, no `strict` flag, and the
// schema where each server documents it (the endpoint's kind picks the form):
//   openai-compatible, vllm: response_format {type: json_schema, json_schema: {name, schema}}
//   llamacpp:  json_schema: <schema> (llama-server's own field; with response_format as well
//              it answers 400 "Either json_schema or grammar can be specified, but not both")
//   llamafile: response_format {type: json_object, schema: <schema>}
// The servers enforce the schema by grammar and may silently skip keywords: validate locally.
#pragma once

#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/http.h"
#include "structure/status.h"

namespace structure::providers::openai_compat {

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint);
Result<ProviderReply> ParseReply(const HttpResponse& response, ProviderKind kind);

}  // namespace structure::providers::openai_compat
