// StructureResult: the one answer to a request. Every request gets exactly one, also when it
// fails; no exception is thrown for a request.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "structure/error_code.h"
#include "structure/json.h"
#include "structure/usage.h"

namespace structure {

enum class Outcome {
  kOk,             // `data` validated against the request's schema (and its checks)
  kNeedMoreInput,  // the prompt lacks what a required field needs; `need` says what
  kStale,          // every attempt failed validation, or the token budget ran out; `errors`
  kError,          // not the model's fault; `error_code` and `errors`
};

// "ok" | "need-more-input" | "stale" | "error".
std::string_view OutcomeName(Outcome outcome);

struct StructureResult {
  Outcome status = Outcome::kError;
  Json data;                        // kOk: the answer
  std::string need;                 // kNeedMoreInput: what the prompt is missing, in words
  std::vector<std::string> errors;  // kStale: the last validation messages; kError: the error
  ErrorCode error_code = ErrorCode::kInternal;  // kError only
  // Where the schema came from: "inline", "registry:bundled", "registry:tenant:<id>",
  // "registry:project:<id>" or "inferred" (the schema builder's).
  std::string schema_origin;
  int iterations = 0;  // content-stage provider calls
  Usage usage;         // every call of the request, the schema builder's included
  // How the provider was asked: "strict" (it enforced the schema), "fallback" (it could not: the
  // answer was held to the schema here only) or "split" (the schema was past the provider's
  // limits: asked in `parts` strict parts at once, merged and validated whole); "" = no call.
  std::string mode;
  int parts = 0;            // "split": how many parts
  std::string mode_reason;  // "fallback": why; "split": the limit that split the schema; an
                            // input split in parts: why (the window known, learned, or asked)
  // The input was longer than one call takes: it was split into `input_parts` overlapping parts
  // (each asked on its own), whose answers were merged into `data` (docs/engine.md "Long
  // documents"); 0 = asked whole.
  int input_parts = 0;
  // Input parts only: the scalars the parts stated differently, [{"pointer", "values",
  // "parts"}] (each value with the 1-based parts that stated it); null when there were none.
  Json conflicts;
  // kOk only: the answer skipped the form the provider was given but validated against the
  // schema as it was (self-hosted servers often ignore the schema they get).
  bool form_ignored = false;
  // kOk, array mode: the answer was cut off at the output cap and no continuation completed it;
  // `data` holds its complete records only.
  bool truncated = false;
  // kStale: the token budget ended the loop (the next call would have gone over it).
  bool budget_exhausted = false;
  std::string model;  // the content stage's model ("" = no call was made)
  // With evidence on (structure/evidence.h), kOk and kNeedMoreInput: the quotes of the
  // grounded leaves and the pointers of the ungrounded ones; null otherwise.
  Json evidence;
  Json ungrounded;
  // What the engine did with the input that the caller should know, e.g. "report.pdf: sent as
  // its text layer (ollama takes no PDF documents)".
  std::vector<std::string> notes;
  // The request asked for a trace: {"rounds": [...], "provider", "model"}, every round of the
  // content loop (what was sent, what came back, how it was judged); null otherwise.
  Json trace;
};

// The result's JSON form: {"status", "data" | "need" | "errors", "code" (kError),
// "schemaOrigin", "iterations", "usage": {"inputTokens", "outputTokens", "cachedInputTokens",
// "cacheWriteTokens", "reasoningTokens", "reasoningTokensUnreported" (when true)}, "mode",
// "parts" and "modeReason" (when set), "inputParts" and "conflicts" (when set),
// "formIgnored", "truncated" with "completeRecords", "tokenBudgetExhausted" (each when true),
// "evidence", "ungrounded", "notes", "trace" (when set)}. reasoningTokensUnreported: some call
// thought but its provider reported no count of it, so reasoningTokens is a lower bound. Takes the
// result by value: a caller that is done with it moves it in, and the answer is not copied.
Json ResultToJson(StructureResult result);

}  // namespace structure
