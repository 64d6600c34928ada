// ErrorCode: why a request ended with status "error", as a typed value.
//
// Every result with status "error" carries exactly one code. The code is stable: its name
// (ErrorCodeName) is what the result JSON, the HTTP API, the MCP tool, batch output lines and the
// metrics show, and a program may branch on it. The message that comes with it is for people and
// may change.
//
// Codes group by who can act on them:
//   - the request: kBadRequest, kBadSchema, kUnknownSchema;
//   - the operator's configuration: kBadConfig, kProviderAuth, kFailedPrecondition;
//   - the provider, transiently: kProviderRateLimited, kProviderUnavailable, kDeadlineExceeded;
//   - the provider, for good: kProviderRejectedRequest, kNotFound, kProviderQuotaExhausted;
//   - the schema, too large for the model even in parts: kSchemaTooLarge;
//   - the input, longer than the model's context window even in parts: kContextTooLong;
//   - the model's answer: kRefusal, kSafetyBlock, kNoFinalAnswer, kOutputCapExhausted;
//   - the request's own budget: kTokenBudgetExhausted;
//   - the caller's semantic check: kCheckFailed;
//   - the run itself: kCancelled, kInternal;
//   - provider batch APIs (`structure batch --provider-batch` only): kBatch*.
#pragma once

#include <optional>
#include <string_view>

namespace structure {

enum class ErrorCode : int {
  kBadRequest,               // bad_request: a field of the request is wrong (the message names it)
  kBadSchema,                // bad_schema: the schema does not compile
  kUnknownSchema,            // unknown_schema: no registry schema of that name in scope
  kBadConfig,                // bad_config: the configuration names something unusable
  kProviderAuth,             // provider_auth: the provider refused the API key (401/403)
  kProviderRateLimited,      // provider_rate_limited: the provider kept answering 429
  kProviderQuotaExhausted,   // provider_quota_exhausted: the account's quota or credit is spent
  kProviderUnavailable,      // provider_unavailable: 5xx, connection failures, retries spent
  kProviderRejectedRequest,  // provider_rejected_request: the provider answered 400
  kSchemaTooLarge,           // schema_too_large: the provider refused the schema (or a part of it)
                             // as too large to compile, and no smaller split was left to try
  kDeadlineExceeded,         // deadline_exceeded: the call's time ran out
  kCancelled,                // cancelled: the caller or the engine's shutdown ended the call
  kRefusal,                  // refusal: the model declined to answer
  kSafetyBlock,              // safety_block: the provider's filter blocked the answer
  kNoFinalAnswer,            // no_final_answer: the model never called the final tool
  kOutputCapExhausted,       // output_cap_exhausted: thinking used the whole output cap
  kTokenBudgetExhausted,     // token_budget_exhausted: tokenBudget cannot pay for the first call
  kCheckFailed,              // check_failed: the semantic check could not judge the answer
  kNotFound,                 // not_found: the provider answered 404 (an unknown model)
  kInternal,                 // internal: a bug; the message says where
  kBatchExpired,             // batch_expired: the provider batch expired before the request ran
  kBatchCancelled,           // batch_cancelled: the provider batch was cancelled before it ran
  kBatchFailed,              // batch_failed: the provider failed the whole batch
  kBatchMissing,             // batch_missing: the batch ended without a result for the request
  kBatchRejected,            // batch_rejected: the provider refused to create the batch
  kBatchRequestTooLarge,     // batch_request_too_large: one request exceeds the batch size cap
  kBatchUnsupported,         // batch_unsupported: the provider has no batch API
  kFailedPrecondition,       // failed_precondition: the provider cannot be called as configured
                             // (its TLS certificate was not accepted)
  kContextTooLong,           // context_too_long: the provider refused the request as longer than
                             // the model's context window, and the input could not be split
                             // into parts that fit (the instructions and schema alone do not)
  kCount,                    // not a code: the number of codes
};

// The code's stable name, e.g. "unknown_schema"; "" for kCount or a value outside the enum.
std::string_view ErrorCodeName(ErrorCode code);

// The code named `name` (ErrorCodeName's inverse); nullopt for any other text.
std::optional<ErrorCode> ErrorCodeFromName(std::string_view name);

}  // namespace structure
