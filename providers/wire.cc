#include "providers/wire.h"

#include "providers/anthropic_messages.h"
#include "providers/gemini_generate.h"
#include "providers/ollama_chat.h"
#include "providers/openai_chat.h"
#include "providers/openai_compat.h"
#include "providers/openrouter.h"

namespace structure::providers {

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint) {
  switch (endpoint.kind) {
    case ProviderKind::kOpenAi:
      return openai_chat::BuildRequest(call, endpoint);
    case ProviderKind::kAnthropic:
      return anthropic_messages::BuildRequest(call, endpoint);
    case ProviderKind::kGemini:
      return gemini_generate::BuildRequest(call, endpoint);
    case ProviderKind::kOllama:
      return ollama_chat::BuildRequest(call, endpoint);
    case ProviderKind::kOpenAiCompat:
    case ProviderKind::kVllm:
    case ProviderKind::kLlamaCpp:
    case ProviderKind::kLlamafile:
      return openai_compat::BuildRequest(call, endpoint);
    case ProviderKind::kOpenRouter:
      return openrouter::BuildRequest(call, endpoint);
  }
  return Internal("unknown provider kind");
}

Result<ProviderReply> ParseReply(ProviderKind kind, const HttpResponse& response) {
  switch (kind) {
    case ProviderKind::kOpenAi:
      return openai_chat::ParseReply(response);
    case ProviderKind::kAnthropic:
      return anthropic_messages::ParseReply(response);
    case ProviderKind::kGemini:
      return gemini_generate::ParseReply(response);
    case ProviderKind::kOllama:
      return ollama_chat::ParseReply(response);
    case ProviderKind::kOpenAiCompat:
    case ProviderKind::kVllm:
    case ProviderKind::kLlamaCpp:
    case ProviderKind::kLlamafile:
      return openai_compat::ParseReply(response, kind);
    case ProviderKind::kOpenRouter:
      return openrouter::ParseReply(response);
  }
  return Internal("unknown provider kind");
}

Status FinishStatus(const ProviderReply& reply) {
  switch (reply.finish) {
    case FinishKind::kStop:
    case FinishKind::kToolUse:
      return Status::Ok();
    case FinishKind::kLength:
      return Status(Code::kFailedPrecondition, "output truncated at max_tokens");
    case FinishKind::kRefusal:
      return Status(Code::kFailedPrecondition,
                    "model refused" + (reply.refusal.empty() ? "" : ": " + reply.refusal));
    case FinishKind::kSafety:
      return Status(
          Code::kFailedPrecondition,
          "blocked by a safety filter" + (reply.refusal.empty() ? "" : ": " + reply.refusal));
  }
  return Status::Ok();
}

int64_t EstimateTokens(const HttpRequest& request, int64_t max_tokens) {
  return static_cast<int64_t>(request.body.size() / 4) + max_tokens;
}

}  // namespace structure::providers
