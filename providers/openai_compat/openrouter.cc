#include "providers/openai_compat/openrouter.h"

#include "providers/openai/openai_chat.h"

namespace structure::providers::openrouter {
namespace {

OpenAiDialect Dialect() {
  OpenAiDialect d;
  d.provider = "openrouter";
  d.prompt_cache_key = false;  // OpenAI's field; OpenRouter caches as the upstream does
  d.require_parameters = true;
  d.reasoning_object = true;
  return d;
}

}  // namespace

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint) {
  auto req = BuildOpenAiStyleRequest(call, endpoint, Dialect());
  if (req.ok()) req->headers.emplace_back("X-Title", "structure");
  return req;
}

Result<ProviderReply> ParseReply(const HttpResponse& response) {
  return ParseOpenAiStyleReply(response, Dialect());
}

}  // namespace structure::providers::openrouter
