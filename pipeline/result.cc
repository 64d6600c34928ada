#include "pipeline/result.h"

namespace structure {

std::string_view OutcomeName(Outcome outcome) {
  switch (outcome) {
    case Outcome::kOk:
      return "ok";
    case Outcome::kNeedMoreInput:
      return "need-more-input";
    case Outcome::kStale:
      return "stale";
    case Outcome::kError:
      return "error";
  }
  return "error";
}

Json ResultToJson(StructureResult r) {
  Json j = Json::MakeObject();
  j.set("status", std::string(OutcomeName(r.status)));
  if (r.status == Outcome::kOk) j.set("data", std::move(r.data));
  if (r.status == Outcome::kNeedMoreInput) j.set("need", std::move(r.need));
  if (r.status == Outcome::kError) j.set("code", ErrorCodeName(r.error_code));
  if (r.status == Outcome::kStale || r.status == Outcome::kError) {
    Json errors = Json::MakeArray();
    for (auto& e : r.errors) errors.push_back(std::move(e));
    j.set("errors", std::move(errors));
  }
  if (!r.schema_origin.empty()) j.set("schemaOrigin", std::move(r.schema_origin));
  j.set("iterations", r.iterations);
  j.set("usage", pipeline::UsageToJson(r.usage));
  if (!r.mode.empty()) j.set("mode", std::move(r.mode));
  if (r.parts > 0) j.set("parts", r.parts);
  if (!r.mode_reason.empty()) j.set("modeReason", std::move(r.mode_reason));
  if (r.input_parts > 0) j.set("inputParts", r.input_parts);
  if (!r.conflicts.is_null()) j.set("conflicts", std::move(r.conflicts));
  if (r.form_ignored) j.set("formIgnored", true);
  if (r.truncated) {
    j.set("truncated", true);
    const Json* data = j.find("data");
    j.set("completeRecords", static_cast<int64_t>(data && data->is_array() ? data->size() : 0));
  }
  if (r.budget_exhausted) j.set("tokenBudgetExhausted", true);
  if (!r.evidence.is_null()) j.set("evidence", std::move(r.evidence));
  if (!r.ungrounded.is_null()) j.set("ungrounded", std::move(r.ungrounded));
  if (!r.notes.empty()) {
    Json notes = Json::MakeArray();
    for (auto& n : r.notes) notes.push_back(std::move(n));
    j.set("notes", std::move(notes));
  }
  if (!r.trace.is_null()) j.set("trace", std::move(r.trace));
  return j;
}

}  // namespace structure

namespace structure::pipeline {

StructureResult PublicResult(CallResult r) {
  if (r.call_trace) {
    Json trace = TraceToJson(*r.call_trace);
    trace.set("provider", std::move(r.provider));
    trace.set("model", r.model);
    r.trace = std::move(trace);
  }
  return std::move(static_cast<StructureResult&>(r));
}

Json ResultToJson(CallResult result) {
  return structure::ResultToJson(PublicResult(std::move(result)));
}

Json UsageToJson(const Usage& u) {
  Json usage = Json::MakeObject();
  usage.set("inputTokens", u.input_tokens);
  usage.set("outputTokens", u.output_tokens);
  usage.set("cachedInputTokens", u.cached_input_tokens);
  usage.set("cacheWriteTokens", u.cache_write_tokens);
  usage.set("reasoningTokens", u.reasoning_tokens);
  if (u.reasoning_unreported) usage.set("reasoningTokensUnreported", true);
  return usage;
}

CallResult ErrorResult(ErrorCode code, std::string message) {
  CallResult r;
  r.status = Outcome::kError;
  r.error_code = code;
  r.errors.push_back(std::move(message));
  return r;
}

}  // namespace structure::pipeline
