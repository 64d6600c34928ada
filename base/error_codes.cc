#include "base/error_codes.h"

namespace structure {
namespace {

using M = McpErrorForm;

constexpr ErrorCodeFacts kFacts[] = {
    // code, name, HTTP status, exit status, MCP form, OpenAI error type, OpenAI error code
    {ErrorCode::kBadRequest, "bad_request", 400, 1, M::kToolError, "invalid_request_error",
     "bad_request"},
    {ErrorCode::kBadSchema, "bad_schema", 400, 1, M::kToolError, "invalid_request_error",
     "bad_schema"},
    {ErrorCode::kUnknownSchema, "unknown_schema", 404, 1, M::kToolError, "invalid_request_error",
     "unknown_schema"},
    // The server's own configuration is wrong: nothing the caller can change.
    {ErrorCode::kBadConfig, "bad_config", 500, 1, M::kToolError, "server_error", "bad_config"},
    // The server's key for the provider, not the caller's: a bad gateway, not a 401.
    {ErrorCode::kProviderAuth, "provider_auth", 502, 1, M::kToolError, "server_error",
     "provider_auth"},
    {ErrorCode::kProviderRateLimited, "provider_rate_limited", 429, 1, M::kToolError,
     "rate_limit_error", "rate_limit_exceeded"},
    // The server's provider account has no quota or credit left (OpenAI insufficient_quota,
    // Anthropic billing, a Gemini daily quota): never retried, and waiting does not help the
    // caller; the operator must add credit or raise the quota. OpenAI's own code for it.
    // 403, not 502: the OpenAI SDKs retry 5xx (and 429, OpenAI's own status for it), so a 502
    // reached the provider up to three times for one call; they never retry a 403. The type and
    // code are those of OpenAI's own body for it.
    {ErrorCode::kProviderQuotaExhausted, "provider_quota_exhausted", 403, 1, M::kToolError,
     "insufficient_quota", "insufficient_quota"},
    {ErrorCode::kProviderUnavailable, "provider_unavailable", 502, 1, M::kToolError, "server_error",
     "provider_unavailable"},
    {ErrorCode::kProviderRejectedRequest, "provider_rejected_request", 502, 1, M::kToolError,
     "server_error", "provider_rejected_request"},
    // The provider could not compile the schema even in the parts the engine split it into
    // (max_split_parts, the learned ceiling): the caller's schema must get smaller or simpler.
    {ErrorCode::kSchemaTooLarge, "schema_too_large", 422, 1, M::kToolError, "invalid_request_error",
     "schema_too_large"},
    {ErrorCode::kDeadlineExceeded, "deadline_exceeded", 504, 1, M::kToolError, "server_error",
     "deadline_exceeded"},
    {ErrorCode::kCancelled, "cancelled", 503, 1, M::kToolError, "service_unavailable_error",
     "cancelled"},
    // The model could not answer this request: a well-formed request the server cannot process.
    {ErrorCode::kRefusal, "refusal", 422, 1, M::kToolError, "invalid_request_error", "refusal"},
    {ErrorCode::kSafetyBlock, "safety_block", 422, 1, M::kToolError, "invalid_request_error",
     "safety_block"},
    {ErrorCode::kNoFinalAnswer, "no_final_answer", 422, 1, M::kToolError, "invalid_request_error",
     "no_final_answer"},
    // The output cap the request or its settings allow was too small for the model's thinking.
    {ErrorCode::kOutputCapExhausted, "output_cap_exhausted", 422, 1, M::kToolError,
     "invalid_request_error", "output_cap_exhausted"},
    // The request's tokenBudget cannot pay for its first call (prompt estimate + output cap).
    {ErrorCode::kTokenBudgetExhausted, "token_budget_exhausted", 422, 1, M::kToolError,
     "invalid_request_error", "token_budget_exhausted"},
    // The configured check program failed (crashed, timed out): an upstream of the server.
    {ErrorCode::kCheckFailed, "check_failed", 502, 1, M::kToolError, "server_error",
     "check_failed"},
    // The provider does not know the model or path the configuration names.
    {ErrorCode::kNotFound, "not_found", 502, 1, M::kToolError, "server_error", "not_found"},
    {ErrorCode::kInternal, "internal", 500, 1, M::kToolError, "server_error", "internal"},
    // The provider cannot be called as configured: its TLS certificate was not accepted (an
    // untrusted CA, a wrong host name). The operator must fix ca_file or the base URL. A bad
    // gateway: an SDK's retry of the 502 costs nothing, as the handshake fails before any call.
    {ErrorCode::kFailedPrecondition, "failed_precondition", 502, 1, M::kToolError, "server_error",
     "failed_precondition"},
    // Provider batch APIs, `structure batch --provider-batch` only; the HTTP API never sees them.
    {ErrorCode::kBatchExpired, "batch_expired", 504, 1, M::kToolError, "server_error",
     "batch_expired"},
    {ErrorCode::kBatchCancelled, "batch_cancelled", 503, 1, M::kToolError,
     "service_unavailable_error", "batch_cancelled"},
    {ErrorCode::kBatchFailed, "batch_failed", 502, 1, M::kToolError, "server_error",
     "batch_failed"},
    {ErrorCode::kBatchMissing, "batch_missing", 502, 1, M::kToolError, "server_error",
     "batch_missing"},
    {ErrorCode::kBatchRejected, "batch_rejected", 502, 1, M::kToolError, "server_error",
     "batch_rejected"},
    {ErrorCode::kBatchRequestTooLarge, "batch_request_too_large", 413, 1, M::kToolError,
     "invalid_request_error", "batch_request_too_large"},
    {ErrorCode::kBatchUnsupported, "batch_unsupported", 501, 1, M::kToolError, "server_error",
     "batch_unsupported"},
    // The model's context window cannot hold even one part of the input with the instructions
    // and the schema: a larger model, or a smaller schema or manual, is needed. OpenAI's code.
    {ErrorCode::kContextTooLong, "context_too_long", 400, 1, M::kToolError, "invalid_request_error",
     "context_length_exceeded"},
};

}  // namespace

const ErrorCodeFacts* FindErrorCodeFacts(ErrorCode code) {
  for (const ErrorCodeFacts& f : kFacts) {
    if (f.code == code) return &f;
  }
  return nullptr;
}

const ErrorCodeFacts& ErrorCodeFactsOf(ErrorCode code) {
  const ErrorCodeFacts* f = FindErrorCodeFacts(code);
  return f != nullptr ? *f : *FindErrorCodeFacts(ErrorCode::kInternal);
}

std::string_view ErrorCodeName(ErrorCode code) {
  const ErrorCodeFacts* f = FindErrorCodeFacts(code);
  return f != nullptr ? f->name : std::string_view();
}

std::optional<ErrorCode> ErrorCodeFromName(std::string_view name) {
  for (const ErrorCodeFacts& f : kFacts) {
    if (f.name == name) return f.code;
  }
  return std::nullopt;
}

}  // namespace structure
