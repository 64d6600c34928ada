// The ends of the content loop: the result it finishes with (usage, trace, evidence, mode), and
// the limits (loop count, token budget) that end it before an answer is accepted.
#include "pipeline/loop/content_loop_internal.h"
#include "providers/context_too_long.h"

namespace structure::pipeline::detail {
namespace {

// The trace's verdict on the last round when the call ends on it (a stale call's last re-ask
// gave its own).
void TraceEnd(LoopState& state, const StructureResult& result) {
  if (!state.trace || state.trace->rounds.empty()) return;
  if (result.status == Outcome::kStale && !state.trace->rounds.back().verdict.empty()) return;
  switch (result.status) {
    case Outcome::kOk:
      return TraceVerdict(state.trace.get(), "accepted");
    case Outcome::kNeedMoreInput:
      return TraceVerdict(state.trace.get(), "need", {{"", "need", result.need}});
    case Outcome::kStale:
      return TraceVerdict(state.trace.get(), "rejected", IssuesOfLines(result.errors, "stale"));
    case Outcome::kError:
      return TraceVerdict(state.trace.get(), "error",
                          IssuesOfLines(result.errors, ErrorCodeName(result.error_code)));
  }
}

Finish Done(LoopState& state, CallResult result, const LoopSpec& spec) {
  state.pending.reset();
  TraceEnd(state, result);
  result.call_trace = std::move(state.trace);
  result.iterations = state.iterations;
  result.usage = state.usage;
  result.form_ignored = result.status == Outcome::kOk && state.form_ignored;
  result.truncated = result.status == Outcome::kOk && state.truncated;
  result.reasks = state.reasks;
  result.mode = spec.plan->strict ? "strict" : "fallback";
  result.mode_reason = spec.plan->mode_reason;
  if (result.status == Outcome::kError && result.error_code == ErrorCode::kSchemaTooLarge)
    result.rejected_grammar = spec.plan->grammar_size;
  if (result.status == Outcome::kError && result.error_code == ErrorCode::kContextTooLong) {
    result.stated_window =
        result.errors.empty() ? 0 : providers::StatedContextWindow(result.errors.front());
    result.refused_tokens = state.last_call_cost;
  }
  if ((result.status == Outcome::kOk || result.status == Outcome::kNeedMoreInput) &&
      !state.evidence.is_null()) {
    result.evidence = std::move(state.evidence);
    result.ungrounded = std::move(state.ungrounded);
  }
  return Finish{std::move(result)};
}

}  // namespace

Finish Error(const LoopSpec& spec, LoopState& state, ErrorCode code, std::string message) {
  return Done(state, ErrorResult(code, std::move(message)), spec);
}

Finish Need(const LoopSpec& spec, LoopState& state, std::string need) {
  CallResult r;
  r.status = Outcome::kNeedMoreInput;
  r.need = std::move(need);
  return Done(state, std::move(r), spec);
}

Finish Accept(const LoopSpec& spec, LoopState& state, Json data) {
  CallResult r;
  r.status = Outcome::kOk;
  r.data = std::move(data);
  return Done(state, std::move(r), spec);
}

int64_t Used(const LoopState& state) {
  return state.usage.input_tokens + state.usage.output_tokens;
}

std::optional<Finish> OutOfLoops(const LoopSpec& spec, LoopState& state) {
  if (state.iterations < spec.max_loops) return std::nullopt;
  CallResult r;
  r.status = Outcome::kStale;
  r.errors = state.last_errors;
  return Done(state, std::move(r), spec);
}

bool MayReask(const LoopSpec& spec, const LoopState& state) {
  if (state.iterations >= spec.max_loops) return false;
  return spec.token_budget <= 0 || Used(state) + state.last_call_cost <= spec.token_budget;
}

Finish OverBudget(const LoopSpec& spec, LoopState& state, int64_t prompt, int64_t cap) {
  std::string why = "tokenBudget " + std::to_string(spec.token_budget) +
                    ": the next call needs about " + std::to_string(prompt) +
                    " prompt tokens + its output cap of " + std::to_string(cap) + ", and " +
                    std::to_string(Used(state)) + " are used";
  if (state.iterations == 0 && state.last_errors.empty()) {
    return Error(spec, state, ErrorCode::kTokenBudgetExhausted,
                 why + "; raise tokenBudget (or lower the model's max_output_tokens)");
  }
  CallResult r;
  r.status = Outcome::kStale;
  r.errors = state.last_errors;
  r.errors.push_back("token budget exhausted: " + why);
  r.budget_exhausted = true;
  return Done(state, std::move(r), spec);
}

}  // namespace structure::pipeline::detail
