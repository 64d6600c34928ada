#include "providers/openai_compat.h"

#include "providers/openai_chat.h"

namespace structure::providers::openai_compat {
namespace {

OpenAiDialect Dialect() {
  OpenAiDialect d;
  d.provider = "openai-compat";
  d.max_completion_tokens = false;
  d.prompt_cache_key = false;  // not an OpenAI-compatible field; their caching is implicit
  // `strict` is OpenAI's flag with OpenAI's schema rules. vLLM, llama.cpp and llamafile enforce
  // the schema by grammar whatever the flag says, and the lowered schema follows their profile
  // (which may take, e.g., a root anyOf that OpenAI strict would reject).
  d.strict = false;
  return d;
}

}  // namespace

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint) {
  return BuildOpenAiStyleRequest(call, endpoint, Dialect());
}

Result<ProviderReply> ParseReply(const HttpResponse& response) {
  return ParseOpenAiStyleReply(response, Dialect());
}

}  // namespace structure::providers::openai_compat
