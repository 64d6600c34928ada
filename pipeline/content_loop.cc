#include "pipeline/content_loop.h"

#include "pipeline/evidence_step.h"
#include "pipeline/extract_json.h"
#include "pipeline/judge.h"
#include "pipeline/prompt.h"
#include "pipeline/reason.h"

namespace structure::pipeline {

namespace {

using providers::FinishKind;
using providers::ProviderCall;
using providers::ProviderReply;
using providers::Role;
using providers::ToolCall;
using providers::Turn;

ProviderCall MakeCall(const LoopSpec& spec, const LoopState& state) {
  const LoopPlan& plan = *spec.plan;
  PromptParts parts;
  parts.task = plan.task;
  parts.manual = plan.manual;
  parts.schema_in_prompt = !plan.strict || plan.schema_in_prompt;
  parts.enforced = plan.strict;
  std::string original;
  if (!plan.strict) {
    original = ToJson(plan.original_schema);
    parts.schema_text = original;
  } else if (plan.schema_in_prompt) {
    parts.schema_text = plan.provider_schema.text();
  }
  parts.need = plan.need;
  parts.need_envelope = plan.need_envelope;
  parts.need_tool_name = plan.need_tool_name;
  parts.final_tool = plan.final_tool;
  parts.final_tool_name = plan.final_tool_name;
  parts.evidence = plan.evidence != config::EvidenceMode::kOff;

  ProviderCall call;
  call.model = spec.model;
  call.system = BuildSystemPrompt(parts);
  call.turns = state.turns;
  // On the fallback path the provider gets no schema to enforce (plain JSON mode), except that
  // a final tool always needs its parameters.
  if (plan.strict || plan.final_tool) call.schema = plan.provider_schema;
  call.strict = plan.strict;
  call.need = plan.need;
  call.need_tool_name = plan.need_tool_name;
  call.need_schema = plan.need_schema;
  call.final_tool = plan.final_tool;
  call.final_tool_name = plan.final_tool_name;
  call.max_tokens = spec.max_tokens > 0 ? spec.max_tokens : plan.max_tokens;
  call.thinking = spec.thinking;
  if (plan.prompt_cache) {
    call.cache_key = plan.cache_key;
    call.cache_min_tokens = plan.cache_min_tokens;
  } else {
    call.cache_min_tokens = -1;
  }
  return call;
}

// The assistant turn that replays a reply: its text and the reasoning that came with it, which
// Anthropic and Gemini require back unchanged with a tool call.
Turn AssistantTurn(const ProviderReply& reply) {
  Turn t;
  t.role = Role::kAssistant;
  t.text = reply.content;
  t.thoughts = reply.thoughts;
  t.text_signature = reply.text_signature;
  return t;
}

// A reply cut off at the cap with no answer at all while the model thought (it says so, or
// thinking was asked for) and, where usage is reported, used (nearly) the whole cap: more loops
// would end the same way.
bool ThinkingUsedTheCap(const ProviderReply& r, bool thinking_asked, int64_t cap) {
  if (r.finish != FinishKind::kLength || !r.tool_calls.empty()) return false;
  if (r.content.find_first_not_of(" \t\r\n") != std::string::npos) return false;
  if (r.usage.reasoning_tokens <= 0 && r.thoughts.empty() && !thinking_asked) return false;
  return r.usage.output_tokens <= 0 || r.usage.output_tokens * 10 >= cap * 9;
}

Finish Done(LoopState& state, StructureResult result, const LoopSpec& spec) {
  state.pending.reset();
  result.iterations = state.iterations;
  result.usage = state.usage;
  result.form_ignored = result.status == Outcome::kOk && state.form_ignored;
  result.reasks = state.reasks;
  result.mode = spec.plan->strict ? "strict" : "fallback";
  result.mode_reason = spec.plan->mode_reason;
  if (result.error_code == "schema_too_large") result.rejected_grammar = spec.plan->grammar_size;
  if ((result.status == Outcome::kOk || result.status == Outcome::kNeedMoreInput) &&
      !state.evidence.is_null()) {
    result.evidence = std::move(state.evidence);
    result.ungrounded = std::move(state.ungrounded);
  }
  return Finish{std::move(result)};
}

Finish Error(const LoopSpec& spec, LoopState& state, std::string code, std::string message) {
  return Done(state, ErrorResult(std::move(code), std::move(message)), spec);
}

Finish Need(const LoopSpec& spec, LoopState& state, std::string need) {
  StructureResult r;
  r.status = Outcome::kNeedMoreInput;
  r.need = std::move(need);
  return Done(state, std::move(r), spec);
}

Finish Accept(const LoopSpec& spec, LoopState& state, Json data) {
  StructureResult r;
  r.status = Outcome::kOk;
  r.data = std::move(data);
  return Done(state, std::move(r), spec);
}

// The text of a need-tool call's arguments: the first string member, or the raw arguments.
std::string NeedText(const ToolCall& call) {
  auto args = ParseStrict(call.arguments);
  if (args.ok() && args->is_object()) {
    for (const auto& [k, v] : args->as_object()) {
      if (v.is_string()) return v.as_string();
    }
  }
  return call.arguments;
}

const ToolCall* FindTool(const ProviderReply& r, const std::string& name) {
  for (const auto& tc : r.tool_calls) {
    if (tc.name == name) return &tc;
  }
  return nullptr;
}

// Stale when the loop is out of iterations or tokens; nullopt when it may ask again.
std::optional<Finish> OutOfBudget(const LoopSpec& spec, LoopState& state) {
  if (state.iterations < spec.max_loops) {
    // Output tokens include the thinking, so the budget counts reasoning tokens too.
    int64_t used = state.usage.input_tokens + state.usage.output_tokens;
    if (spec.token_budget <= 0 || used < spec.token_budget) return std::nullopt;
    StructureResult r;
    r.status = Outcome::kStale;
    r.errors = state.last_errors;
    r.errors.push_back("token budget exhausted: used " + std::to_string(used) + " of " +
                       std::to_string(spec.token_budget) + " tokens");
    return Done(state, std::move(r), spec);
  }
  StructureResult r;
  r.status = Outcome::kStale;
  r.errors = state.last_errors;
  return Done(state, std::move(r), spec);
}

// The loop may send another call: it has rounds and tokens left.
bool MayReask(const LoopSpec& spec, const LoopState& state) {
  if (state.iterations >= spec.max_loops) return false;
  int64_t used = state.usage.input_tokens + state.usage.output_tokens;
  return spec.token_budget <= 0 || used < spec.token_budget;
}

// Evidence on: judges the quotes of a schema-valid answer (pipeline/evidence_step.h). The
// verdict's evidence is kept in the state for the result.
EvidenceVerdict CheckQuotes(const LoopSpec& spec, LoopState& state, Json data, const Json& claims) {
  EvidenceVerdict e =
      JudgeEvidence(*spec.plan, spec.prompt, std::move(data), claims, MayReask(spec, state));
  if (e.kind != EvidenceVerdict::Kind::kReask) {
    state.evidence = std::move(e.evidence);
    state.ungrounded = std::move(e.ungrounded);
  }
  return e;
}

// Re-asks with the minimal context: the user's text, the previous answer, the reason. Earlier
// failed rounds are not resent (they only grow the bill).
Step Reask(const LoopSpec& spec, LoopState& state, const ProviderReply& reply,
           const ToolCall* answer_call, std::string reason, std::vector<std::string> errors,
           ReaskReasons why) {
  state.last_errors = std::move(errors);
  state.evidence = Json();
  state.ungrounded = Json();
  if (auto stale = OutOfBudget(spec, state)) return *stale;
  CountReask(state.reasks, why);
  Turn first = state.turns.front();
  state.turns.clear();
  state.turns.push_back(std::move(first));
  Turn assistant = AssistantTurn(reply);
  if (answer_call != nullptr) {
    assistant.tool_calls.push_back(*answer_call);
    state.turns.push_back(std::move(assistant));
    Turn tool;
    tool.role = Role::kTool;
    tool.tool_call_id = answer_call->id;
    tool.tool_name = answer_call->name;
    tool.is_error = true;
    tool.text = std::move(reason);
    state.turns.push_back(std::move(tool));
  } else {
    state.turns.push_back(std::move(assistant));
    Turn user;
    user.role = Role::kUser;
    user.text = std::move(reason);
    state.turns.push_back(std::move(user));
  }
  state.pending.reset();
  return SendCall{MakeCall(spec, state)};
}

// Final-tool mode, every final call rejected: the whole reply goes back with one result per
// tool call (its rejection, or "not run").
Step ReaskTools(const LoopSpec& spec, LoopState& state) {
  PendingReply& p = *state.pending;
  state.evidence = Json();
  state.ungrounded = Json();
  if (auto stale = OutOfBudget(spec, state)) return *stale;
  CountReask(state.reasks, p.why);
  Turn first = state.turns.front();
  state.turns.clear();
  state.turns.push_back(std::move(first));
  Turn assistant = AssistantTurn(p.reply);
  assistant.tool_calls = p.reply.tool_calls;
  state.turns.push_back(std::move(assistant));
  for (size_t i = 0; i < p.reply.tool_calls.size(); ++i) {
    Turn tool;
    tool.role = Role::kTool;
    tool.tool_call_id = p.reply.tool_calls[i].id;
    tool.tool_name = p.reply.tool_calls[i].name;
    tool.is_error = p.rejected[i];
    tool.text = p.results[i].empty() ? "not run" : std::move(p.results[i]);
    state.turns.push_back(std::move(tool));
  }
  state.pending.reset();
  return SendCall{MakeCall(spec, state)};
}

// Judges the final calls from p.next on; the first accepted one ends the run.
Step NextFinal(const LoopSpec& spec, LoopState& state) {
  PendingReply& p = *state.pending;
  const LoopPlan& plan = *spec.plan;
  for (; p.next < p.finals.size(); ++p.next) {
    size_t i = p.finals[p.next];
    Candidate c;
    c.text = p.reply.tool_calls[i].arguments;
    c.truncated = p.reply.finish == FinishKind::kLength;
    Verdict v = JudgeCandidate(plan, c);
    if (v.kind == Verdict::Kind::kNeed) return Need(spec, state, std::move(v.need));
    if (v.kind == Verdict::Kind::kValid && plan.evidence != config::EvidenceMode::kOff) {
      EvidenceVerdict e = CheckQuotes(spec, state, std::move(v.data), v.evidence);
      if (e.kind == EvidenceVerdict::Kind::kNeed) return Need(spec, state, std::move(e.need));
      if (e.kind == EvidenceVerdict::Kind::kReask) {
        v.kind = Verdict::Kind::kRejected;
        v.why = ReasonBit(ReaskReason::kSemantic);
        v.reason = std::move(e.reason);
        v.errors = std::move(e.lines);
      } else {
        v.data = std::move(e.data);
      }
    }
    if (v.kind == Verdict::Kind::kValid && spec.semantic_check) {
      std::vector<std::string> lines = spec.semantic_check(v.data);
      if (!lines.empty()) {
        v.kind = Verdict::Kind::kRejected;
        v.why = ReasonBit(ReaskReason::kSemantic);
        v.reason = BuildCheckReason(lines);
        v.errors = std::move(lines);
      }
    }
    if (v.kind == Verdict::Kind::kValid) {
      state.form_ignored = v.form_ignored;
      if (!spec.external_check) return Accept(spec, state, std::move(v.data));
      p.data = v.data;
      return RunCheck{std::move(v.data)};
    }
    p.results[i] = std::move(v.reason);
    p.rejected[i] = true;
    p.why |= v.why;
    state.last_errors = std::move(v.errors);
  }
  if (const ToolCall* need = FindTool(p.reply, plan.need_tool_name);
      need != nullptr && plan.need == providers::NeedChannel::kTool) {
    return Need(spec, state, NeedText(*need));
  }
  return ReaskTools(spec, state);
}

Step OnFinalToolReply(const LoopSpec& spec, LoopState& state, const ProviderReply& r) {
  const LoopPlan& plan = *spec.plan;
  PendingReply p;
  for (size_t i = 0; i < r.tool_calls.size(); ++i) {
    if (r.tool_calls[i].name == plan.final_tool_name) p.finals.push_back(i);
  }
  const ToolCall* need =
      plan.need == providers::NeedChannel::kTool ? FindTool(r, plan.need_tool_name) : nullptr;
  if (p.finals.empty() && need == nullptr) {
    // Prose instead of the final tool: a nudge, which is not an iteration of the loop.
    if (state.nudges >= plan.max_nudges) {
      return Error(spec, state, "no_final_answer",
                   "the model answered in prose " + std::to_string(state.nudges + 1) +
                       " times and never called the final tool \"" + plan.final_tool_name + "\"");
    }
    ++state.nudges;
    CountReask(state.reasks, ReasonBit(ReaskReason::kParse));  // not in the form asked
    state.turns.push_back(AssistantTurn(r));
    Turn nudge;
    nudge.role = Role::kUser;
    nudge.text = FinalToolNudge(plan.final_tool_name);
    state.turns.push_back(std::move(nudge));
    return SendCall{MakeCall(spec, state)};
  }
  ++state.iterations;
  p.reply = r;
  p.results.assign(r.tool_calls.size(), std::string());
  p.rejected.assign(r.tool_calls.size(), false);
  state.pending = std::move(p);
  return NextFinal(spec, state);
}

// Schema mode: one answer, in the content or in the tool call a provider answered through.
Step OnAnswerReply(const LoopSpec& spec, LoopState& state, const ProviderReply& r) {
  const LoopPlan& plan = *spec.plan;
  ++state.iterations;
  if (plan.need == providers::NeedChannel::kTool) {
    if (const ToolCall* need = FindTool(r, plan.need_tool_name)) {
      return Need(spec, state, NeedText(*need));
    }
  }
  int answer_call = -1;
  Candidate c;
  c.text = r.content;
  if (!r.tool_calls.empty() && r.content.empty()) {
    answer_call = 0;  // providers that answer through a forced tool
    c.text = r.tool_calls.front().arguments;
  }
  c.truncated = r.finish == FinishKind::kLength;
  c.strict_parse = plan.strict && answer_call < 0;
  Verdict v = JudgeCandidate(plan, c);
  const ToolCall* call = answer_call < 0 ? nullptr : &r.tool_calls[answer_call];
  if (v.kind == Verdict::Kind::kNeed) return Need(spec, state, std::move(v.need));
  if (v.kind == Verdict::Kind::kRejected) {
    return Reask(spec, state, r, call, std::move(v.reason), std::move(v.errors), v.why);
  }
  if (plan.evidence != config::EvidenceMode::kOff) {
    EvidenceVerdict e = CheckQuotes(spec, state, std::move(v.data), v.evidence);
    if (e.kind == EvidenceVerdict::Kind::kNeed) return Need(spec, state, std::move(e.need));
    if (e.kind == EvidenceVerdict::Kind::kReask) {
      return Reask(spec, state, r, call, std::move(e.reason), std::move(e.lines),
                   ReasonBit(ReaskReason::kSemantic));
    }
    v.data = std::move(e.data);
  }
  if (spec.semantic_check) {
    std::vector<std::string> lines = spec.semantic_check(v.data);
    if (!lines.empty()) {
      std::string reason = BuildCheckReason(lines);
      return Reask(spec, state, r, call, std::move(reason), std::move(lines),
                   ReasonBit(ReaskReason::kSemantic));
    }
  }
  state.form_ignored = v.form_ignored;
  if (!spec.external_check) return Accept(spec, state, std::move(v.data));
  PendingReply p;
  p.reply = r;
  p.answer_call = answer_call;
  p.data = v.data;
  state.pending = std::move(p);
  return RunCheck{std::move(v.data)};
}

}  // namespace

std::string ErrorCodeFor(const Status& status) {
  switch (status.code()) {
    case Code::kUnauthenticated:
    case Code::kPermissionDenied:
      return "provider_auth";
    case Code::kResourceExhausted:
      return "provider_rate_limited";
    case Code::kUnavailable:
      return "provider_unavailable";
    case Code::kDeadlineExceeded:
      return "deadline_exceeded";
    case Code::kCancelled:
      return "cancelled";
    case Code::kInvalidArgument:
      return "provider_rejected_request";
    case Code::kSchemaTooLarge:
      return "schema_too_large";
    case Code::kNotFound:
      return "not_found";
    default:
      return "internal";
  }
}

Finish FailLoop(const LoopSpec& spec, LoopState& state, std::string code, std::string message) {
  return Error(spec, state, std::move(code), std::move(message));
}

Step Start(const LoopSpec& spec, LoopState& state) {
  state = LoopState{};
  Turn user;
  user.role = Role::kUser;
  user.text = spec.prompt;
  state.turns.push_back(std::move(user));
  return SendCall{MakeCall(spec, state)};
}

Step OnReply(const LoopSpec& spec, LoopState& state, const Result<ProviderReply>& reply) {
  if (!reply.ok())
    return Error(spec, state, ErrorCodeFor(reply.status()), reply.status().message());
  const ProviderReply& r = *reply;
  state.usage += r.usage;
  if (r.finish == FinishKind::kRefusal) {
    ++state.iterations;
    return Error(spec, state, "refusal",
                 "the model declined: " + (r.refusal.empty() ? r.content : r.refusal));
  }
  if (r.finish == FinishKind::kSafety) {
    ++state.iterations;
    return Error(spec, state, "safety_block",
                 "the provider blocked the answer" + (r.refusal.empty() ? "" : ": " + r.refusal));
  }
  int64_t cap = spec.max_tokens > 0 ? spec.max_tokens : spec.plan->max_tokens;
  if (ThinkingUsedTheCap(r, spec.thinking.on(), cap)) {
    ++state.iterations;
    std::string used = r.usage.reasoning_tokens > 0
                           ? " (" + std::to_string(r.usage.reasoning_tokens) + " reasoning tokens)"
                           : "";
    return Error(spec, state, "output_cap_exhausted",
                 "the model spent the whole output cap of " + std::to_string(cap) +
                     " tokens thinking" + used + " and wrote no answer; raise " + spec.cap_setting +
                     " or lower the model's reasoning_effort or thinking_budget");
  }
  if (spec.plan->final_tool) return OnFinalToolReply(spec, state, r);
  return OnAnswerReply(spec, state, r);
}

Step OnCheck(const LoopSpec& spec, LoopState& state,
             const Result<std::vector<std::string>>& lines) {
  if (!state.pending)
    return Error(spec, state, "internal", "a check verdict with no answer under check");
  if (!lines.ok()) {
    bool cancelled = lines.status().code() == Code::kCancelled;
    return Error(spec, state, cancelled ? "cancelled" : "check_failed", lines.status().message());
  }
  PendingReply& p = *state.pending;
  if (lines->empty()) return Accept(spec, state, std::move(p.data));
  if (spec.plan->final_tool) {
    size_t i = p.finals[p.next];
    p.results[i] = BuildCheckReason(*lines);
    p.rejected[i] = true;
    p.why |= ReasonBit(ReaskReason::kSemantic);
    state.last_errors = *lines;
    ++p.next;
    return NextFinal(spec, state);
  }
  const ToolCall* call = p.answer_call < 0 ? nullptr : &p.reply.tool_calls[p.answer_call];
  return Reask(spec, state, p.reply, call, BuildCheckReason(*lines), *lines,
               ReasonBit(ReaskReason::kSemantic));
}

}  // namespace structure::pipeline
