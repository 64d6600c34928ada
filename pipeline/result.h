// The request's result, exactly as DESIGN.md §1: one per request, never an exception.
#pragma once

#include <string>
#include <vector>

#include "base/json.h"
#include "pipeline/reask_reason.h"
#include "providers/call.h"

namespace structure::pipeline {

enum class Outcome { kOk, kNeedMoreInput, kStale, kError };

// "ok" | "need-more-input" | "stale" | "error"
std::string_view OutcomeName(Outcome outcome);

struct StructureResult {
  Outcome status = Outcome::kError;
  Json data;                        // iff kOk
  std::string need;                 // iff kNeedMoreInput
  std::vector<std::string> errors;  // kStale: last validator messages; kError: the error
  std::string error_code;           // kError: stable code, e.g. "unknown_schema", "refusal"
  std::string schema_origin;  // inline | registry:bundled | registry:tenant:<id> | ... | inferred
  int iterations = 0;         // content-stage LLM calls
  providers::Usage usage;     // summed over every call, schema stage included
  std::string mode;           // "strict" | "fallback" | "split": how the provider was asked
  int parts = 0;              // "split": the parts the schema was asked in
  std::string mode_reason;    // "fallback": why; "split": the limit that split the schema
  // kOk only: the answer skipped the form the provider was given (no envelope) but validated
  // against the user's schema as it was; counted by metrics as "form ignored".
  bool form_ignored = false;
  // Evidence on (issue 20), kOk and kNeedMoreInput: pointer -> {quote, byteStart, byteEnd,
  // cpStart, cpEnd, match, kind} for the grounded leaves, and the pointers of the ungrounded ones.
  Json evidence;
  Json ungrounded;
  // For the metrics (pipeline/call_stats.h), not part of the result JSON:
  ReaskCounts reasks{};  // content-stage re-asks, by reason
  std::string provider;  // configured provider of the content stage ("" = none)
  // error "schema_too_large": the grammar size of the schema the provider refused (the
  // engine learns the model's ceiling from it).
  size_t rejected_grammar = 0;
};

// {"status":…, "data"|"need"|"errors":…, "schemaOrigin":…, "iterations":…,
//  "usage":{"inputTokens":…,"outputTokens":…,"cachedInputTokens":…,"cacheWriteTokens":…,
//  "reasoningTokens":…}} plus "code" for errors, "mode" when known and "formIgnored": true when
//  set.
// By value: a caller that is done with the result moves it in, and its data is not copied.
Json ResultToJson(StructureResult result);

StructureResult ErrorResult(std::string code, std::string message);

}  // namespace structure::pipeline
