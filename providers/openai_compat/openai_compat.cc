#include "providers/openai_compat/openai_compat.h"

#include "providers/openai/openai_chat.h"

namespace structure::providers::openai_compat {
namespace {

OpenAiDialect Dialect(ProviderKind kind) {
  OpenAiDialect d;
  d.provider = ProviderKindName(kind);
  d.prompt_cache_key = false;  // not an OpenAI-compatible field; their caching is implicit
  // `strict` is OpenAI's flag with OpenAI's schema rules. These servers enforce the schema by
  // grammar whatever the flag says, and the lowered schema follows their profile (which may
  // take, e.g., a root anyOf that OpenAI strict would reject).
  d.strict = false;
  if (kind == ProviderKind::kLlamaCpp) d.schema_field = SchemaField::kTopLevelJsonSchema;
  if (kind == ProviderKind::kLlamafile) d.schema_field = SchemaField::kJsonObjectSchema;
  return d;
}

}  // namespace

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint) {
  return BuildOpenAiStyleRequest(call, endpoint, Dialect(endpoint.kind));
}

Result<ProviderReply> ParseReply(const HttpResponse& response, ProviderKind kind) {
  return ParseOpenAiStyleReply(response, Dialect(kind));
}

}  // namespace structure::providers::openai_compat
