#include "providers/wire.h"

#include <algorithm>

#include "providers/kinds.h"

namespace structure::providers {

Result<HttpRequest> BuildRequest(const ProviderCall& call, const Endpoint& endpoint) {
  return InfoOf(endpoint.kind).build(call, endpoint);
}

Result<ProviderReply> ParseReply(ProviderKind kind, const HttpResponse& response) {
  return InfoOf(kind).parse(response, kind);
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

int64_t EstimateTokens(const HttpRequest& request, const ProviderCall& call) {
  size_t body = request.body.size();
  int64_t files = 0;
  for (const Turn& t : call.turns) {
    for (const FilePart& f : t.files) {
      if (f.text || !f.data) continue;
      size_t base64 = (f.data->size() + 2) / 3 * 4;
      body -= std::min(body, base64);
      files += int64_t{1600} * std::max(1, f.pages);
    }
  }
  return static_cast<int64_t>(body / 4) + files + call.max_tokens;
}

}  // namespace structure::providers
