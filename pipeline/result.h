// The result (structure/result.h) inside the engine: CallResult adds what only the metrics read,
// and is cut down to the public StructureResult where a result leaves the engine.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>

#include "pipeline/call_trace.h"
#include "pipeline/loop/reask_reason.h"
#include "structure/error_code.h"
#include "structure/json.h"
#include "structure/result.h"

namespace structure::pipeline {

using structure::Outcome;
using structure::OutcomeName;
using structure::ResultToJson;
using structure::StructureResult;

// A request's result as the content loop, the request host and the provider batch runner pass
// it on; the metrics (pipeline/call_stats.h) read the extra fields, the caller never sees them.
struct CallResult : StructureResult {
  CallResult() = default;
  CallResult(StructureResult result) : StructureResult(std::move(result)) {}  // NOLINT: implicit

  ReaskCounts reasks{};  // content-stage re-asks, by reason
  std::string provider;  // configured provider of the content stage ("" = none)
  // The request asked for a trace (`trace: true`): every round of the content loop, the public
  // result's `trace` (with "provider" and "model") once it leaves the engine (PublicResult).
  std::shared_ptr<const CallTrace> call_trace;
  // error "schema_too_large": the grammar size of the schema the provider refused (the
  // engine learns the model's ceiling from it).
  size_t rejected_grammar = 0;
  // error "context_too_long": the window the provider's refusal stated (0 = none) and the
  // refused call's estimate, prompt and output cap (the engine learns the model's window).
  int64_t stated_window = 0;
  int64_t refused_tokens = 0;
};

// The public result: the trace in its JSON form, the metrics' fields dropped.
StructureResult PublicResult(CallResult result);

// ResultToJson of PublicResult(result): what the engine's own callers (server, batch) answer.
Json ResultToJson(CallResult result);

// A result with status kError, `code` and the one message.
CallResult ErrorResult(ErrorCode code, std::string message);

// {"inputTokens","outputTokens","cachedInputTokens","cacheWriteTokens","reasoningTokens"}.
Json UsageToJson(const Usage& usage);

}  // namespace structure::pipeline
