// The request's result, exactly as DESIGN.md §1: one per request, never an exception.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/json.h"
#include "pipeline/call_trace.h"
#include "pipeline/reask_reason.h"
#include "providers/call.h"
#include "structure/error_code.h"

namespace structure::pipeline {

enum class Outcome { kOk, kNeedMoreInput, kStale, kError };

// "ok" | "need-more-input" | "stale" | "error"
std::string_view OutcomeName(Outcome outcome);

struct StructureResult {
  Outcome status = Outcome::kError;
  Json data;                        // iff kOk
  std::string need;                 // iff kNeedMoreInput
  std::vector<std::string> errors;  // kStale: last validator messages; kError: the error
  ErrorCode error_code = ErrorCode::kInternal;  // kError: why (ErrorCodeName: the JSON "code")
  std::string schema_origin;  // inline | registry:bundled | registry:tenant:<id> | ... | inferred
  int iterations = 0;         // content-stage LLM calls
  providers::Usage usage;     // summed over every call, schema stage included
  std::string mode;           // "strict" | "fallback" | "split": how the provider was asked
  int parts = 0;              // "split": the parts the schema was asked in
  std::string mode_reason;    // "fallback": why; "split": the limit that split the schema
  // kOk only: the answer skipped the form the provider was given (no envelope, or on the strict
  // path text around its JSON) but validated against the user's schema as it was; counted by
  // metrics as "form ignored".
  bool form_ignored = false;
  // kOk, array mode: the answer was cut off at the output cap and no continuation completed it:
  // `data` holds its complete records only ("truncated": true, "completeRecords": N).
  bool truncated = false;
  // kStale: the token budget ended the loop (the next call would have gone over it).
  bool budget_exhausted = false;
  // Evidence on (issue 20), kOk and kNeedMoreInput: pointer -> {quote, byteStart, byteEnd,
  // cpStart, cpEnd, match, kind} for the grounded leaves, and the pointers of the ungrounded ones.
  Json evidence;
  Json ungrounded;
  // For the metrics (pipeline/call_stats.h), not part of the result JSON:
  ReaskCounts reasks{};  // content-stage re-asks, by reason
  std::string provider;  // configured provider of the content stage ("" = none)
  std::string model;     // the content stage's model ("" = none)
  // The request asked for a trace (`trace: true`): every round of the content loop. In the
  // result JSON as "trace", with "provider" and "model".
  std::shared_ptr<const CallTrace> trace;
  // error "schema_too_large": the grammar size of the schema the provider refused (the
  // engine learns the model's ceiling from it).
  size_t rejected_grammar = 0;
};

// {"status":…, "data"|"need"|"errors":…, "schemaOrigin":…, "iterations":…,
//  "usage":{"inputTokens":…,"outputTokens":…,"cachedInputTokens":…,"cacheWriteTokens":…,
//  "reasoningTokens":…[,"reasoningTokensUnreported":true]}} plus "code" for errors, "mode" when
//  known and "formIgnored": true when set. reasoningTokensUnreported: some call thought but its
//  provider reported no count of it, so reasoningTokens is a lower bound.
// By value: a caller that is done with the result moves it in, and its data is not copied.
Json ResultToJson(StructureResult result);

StructureResult ErrorResult(ErrorCode code, std::string message);

// {"inputTokens","outputTokens","cachedInputTokens","cacheWriteTokens","reasoningTokens"}.
Json UsageToJson(const providers::Usage& usage);

}  // namespace structure::pipeline
