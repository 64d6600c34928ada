#include "pipeline/loop/content_loop.h"

#include "pipeline/loop/array_answer.h"
#include "pipeline/loop/content_loop_internal.h"
#include "pipeline/loop/evidence_step.h"
#include "pipeline/loop/extract_json.h"
#include "pipeline/loop/judge.h"
#include "pipeline/loop/prompt.h"
#include "pipeline/loop/reason.h"

namespace structure::pipeline {

namespace {

using detail::Accept;
using detail::AskAgain;
using detail::AssistantTurn;
using detail::Error;
using detail::MayReask;
using detail::Need;
using detail::Reask;
using detail::ReaskTools;
using detail::SendNext;
using providers::FinishKind;
using providers::ProviderReply;
using providers::Role;
using providers::ToolCall;
using providers::Turn;

// A reply cut off at the cap with no answer at all while the model thought (it says so, or
// thinking was asked for) and, where usage is reported, used (nearly) the whole cap: more loops
// would end the same way.
bool ThinkingUsedTheCap(const ProviderReply& r, bool thinking_asked, int64_t cap) {
  if (r.finish != FinishKind::kLength || !r.tool_calls.empty()) return false;
  if (r.content.find_first_not_of(" \t\r\n") != std::string::npos) return false;
  if (r.usage.reasoning_tokens <= 0 && r.thoughts.empty() && !thinking_asked) return false;
  return r.usage.output_tokens <= 0 || r.usage.output_tokens * 10 >= cap * 9;
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

// Evidence on: judges the quotes of a schema-valid answer (pipeline/loop/evidence_step.h). The
// verdict's evidence is kept in the state for the result.
EvidenceVerdict CheckQuotes(const LoopSpec& spec, LoopState& state, Json data, const Json& claims,
                            bool list_missing) {
  EvidenceVerdict e = JudgeEvidence(*spec.plan, spec.prompt, std::move(data), claims,
                                    MayReask(spec, state), list_missing, spec.files.get());
  if (e.kind != EvidenceVerdict::Kind::kReask) {
    state.evidence = std::move(e.evidence);
    state.ungrounded = std::move(e.ungrounded);
  }
  return e;
}

// Array mode: the records of an answer cut off at the output cap are kept, and while calls are
// left the records after the last complete one are asked for (a continuation); the parts are
// joined when an answer ends whole or no call is left; a part that starts with records equal to
// the last ones kept (the model repeated the last record, or started over) has them dropped
// (SeamOverlap). nullopt: `v.data`
// holds the records to judge further (and state.truncated says whether some are missing).
std::optional<Step> JoinRecords(const LoopSpec& spec, LoopState& state, const ProviderReply& reply,
                                const ToolCall* answer_call, Verdict& v) {
  Json joined = state.partial.is_null() ? Json::MakeArray() : state.partial;
  Json::Array& records = v.data.as_array();
  // The seam: records the continuation starts with that repeat the last ones kept are dropped.
  size_t first = state.partial.is_null() ? 0 : SeamOverlap(joined.as_array(), records);
  for (size_t i = first; i < records.size(); ++i) joined.push_back(std::move(records[i]));
  if (v.truncated && MayReask(spec, state)) {
    size_t kept = joined.size();
    state.partial = std::move(joined);
    return AskAgain(spec, state, reply, answer_call, ContinuationText(kept), true,
                    ReasonBit(ReaskReason::kParse));
  }
  if (!state.partial.is_null() && !spec.plan->validator->Validate(joined, false).valid) {
    // The last part does not fit with the ones before (a repeated record, too many): the
    // records before it stand, as the answer of a cut-off reply.
    joined = std::move(state.partial);
    v.truncated = true;
  }
  state.partial = Json();
  state.truncated = v.truncated;
  v.data = std::move(joined);
  return std::nullopt;
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
      EvidenceVerdict e =
          CheckQuotes(spec, state, std::move(v.data), v.evidence, v.evidence_list_missing);
      if (e.kind == EvidenceVerdict::Kind::kNeed) return Need(spec, state, std::move(e.need));
      if (e.kind == EvidenceVerdict::Kind::kReask) {
        if (state.trace) TraceVerdict(state.trace.get(), "ungrounded", IssuesOf(e));
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
        if (state.trace) TraceVerdict(state.trace.get(), "check", IssuesOfLines(lines, "check"));
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
    if (state.trace && v.why != ReasonBit(ReaskReason::kSemantic)) {
      TraceVerdict(state.trace.get(), "rejected", IssuesOf(v));  // evidence and checks gave theirs
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

// What a final-tool reply without a final call did instead; `other` gets the tool it called.
MissedTool Missed(const ProviderReply& r, std::string& other) {
  if (!r.tool_calls.empty()) {
    other = r.tool_calls.front().name;
    return MissedTool::kOtherTool;
  }
  bool blank = r.content.find_first_not_of(" \t\r\n") == std::string::npos;
  if (blank) return r.finish == FinishKind::kLength ? MissedTool::kCutOff : MissedTool::kEmpty;
  auto json = ParseStrict(r.content);
  if (json.ok() && (json->is_object() || json->is_array())) return MissedTool::kJsonText;
  return MissedTool::kProse;
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
    // No final call: a nudge saying what the reply did instead, which is not an iteration of the
    // loop. It replaces the previous nudge, so a run of them does not grow the conversation.
    std::string other;
    MissedTool what = Missed(r, other);
    if (state.nudges >= plan.max_nudges) {
      return Error(spec, state, ErrorCode::kNoFinalAnswer,
                   "the model did not call the final tool \"" + plan.final_tool_name + "\" in " +
                       std::to_string(state.nudges + 1) + " replies (the last was " +
                       std::string(MissedToolName(what)) + ")");
    }
    ++state.nudges;
    CountReask(state.reasks, ReasonBit(ReaskReason::kParse));  // not in the form asked
    if (state.nudge_at >= 0 && static_cast<size_t>(state.nudge_at) + 2 == state.turns.size()) {
      state.turns.resize(state.nudge_at);
    }
    state.nudge_at = static_cast<int>(state.turns.size());
    state.turns.push_back(AssistantTurn(r));
    Turn nudge;
    nudge.role = Role::kUser;
    nudge.text = FinalToolNudge(plan.final_tool_name, what, other);
    if (state.trace) {
      TraceVerdict(state.trace.get(), "nudged", {}, nudge.text);
      state.trace->rounds.back().nudge = true;
    }
    state.turns.push_back(std::move(nudge));
    return SendNext(spec, state);
  }
  state.nudge_at = -1;
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
  if (v.kind == Verdict::Kind::kRejected && !state.partial.is_null()) {
    // A continuation that failed: the records of the parts before it stand, cut off.
    v.data = std::move(state.partial);
    state.partial = Json();
    state.truncated = true;
  } else if (v.kind == Verdict::Kind::kRejected) {
    if (state.trace) TraceVerdict(state.trace.get(), "rejected", IssuesOf(v));
    return Reask(spec, state, r, call, std::move(v.reason), std::move(v.errors), v.why);
  }
  if (plan.array_mode && (v.truncated || !state.partial.is_null())) {
    if (auto next = JoinRecords(spec, state, r, call, v)) return std::move(*next);
  }
  if (plan.evidence != config::EvidenceMode::kOff) {
    EvidenceVerdict e =
        CheckQuotes(spec, state, std::move(v.data), v.evidence, v.evidence_list_missing);
    if (e.kind == EvidenceVerdict::Kind::kNeed) return Need(spec, state, std::move(e.need));
    if (e.kind == EvidenceVerdict::Kind::kReask) {
      if (state.trace) TraceVerdict(state.trace.get(), "ungrounded", IssuesOf(e));
      return Reask(spec, state, r, call, std::move(e.reason), std::move(e.lines),
                   ReasonBit(ReaskReason::kSemantic));
    }
    v.data = std::move(e.data);
  }
  if (spec.semantic_check) {
    std::vector<std::string> lines = spec.semantic_check(v.data);
    if (!lines.empty()) {
      if (state.trace) TraceVerdict(state.trace.get(), "check", IssuesOfLines(lines, "check"));
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

ErrorCode ErrorCodeFor(const Status& status) {
  switch (status.code()) {
    case Code::kUnauthenticated:
    case Code::kPermissionDenied:
      return ErrorCode::kProviderAuth;
    case Code::kResourceExhausted:
      return ErrorCode::kProviderRateLimited;
    case Code::kQuotaExhausted:
      return ErrorCode::kProviderQuotaExhausted;
    case Code::kUnavailable:
      return ErrorCode::kProviderUnavailable;
    case Code::kDeadlineExceeded:
      return ErrorCode::kDeadlineExceeded;
    case Code::kCancelled:
      return ErrorCode::kCancelled;
    case Code::kInvalidArgument:
      return ErrorCode::kProviderRejectedRequest;
    case Code::kSchemaTooLarge:
      return ErrorCode::kSchemaTooLarge;
    case Code::kContextTooLong:
      return ErrorCode::kContextTooLong;
    case Code::kNotFound:
      return ErrorCode::kNotFound;
    case Code::kFailedPrecondition:
      return ErrorCode::kFailedPrecondition;  // a TLS certificate not accepted
    default:
      return ErrorCode::kInternal;
  }
}

Finish FailLoop(const LoopSpec& spec, LoopState& state, ErrorCode code, std::string message) {
  return Error(spec, state, code, std::move(message));
}

Step Start(const LoopSpec& spec, LoopState& state) {
  state = LoopState{};
  if (spec.trace) state.trace = std::make_shared<CallTrace>();
  if (!spec.turns.empty()) {
    state.turns = spec.turns;
  } else {
    state.turns.push_back(providers::UserTurn(spec.prompt));
  }
  if (spec.files) {
    for (providers::Turn& t : state.turns) {
      if (t.role != providers::Role::kUser) continue;
      t.files = spec.files->parts;
      break;
    }
  }
  return SendNext(spec, state);
}

Step OnReply(const LoopSpec& spec, LoopState& state, const Result<ProviderReply>& reply) {
  TraceReply(state.trace.get(), reply);
  if (!reply.ok())
    return Error(spec, state, ErrorCodeFor(reply.status()), reply.status().message());
  const ProviderReply& r = *reply;
  state.usage += r.usage;
  if (r.finish == FinishKind::kRefusal) {
    ++state.iterations;
    return Error(spec, state, ErrorCode::kRefusal,
                 "the model declined: " + (r.refusal.empty() ? r.content : r.refusal));
  }
  if (r.finish == FinishKind::kSafety) {
    ++state.iterations;
    return Error(spec, state, ErrorCode::kSafetyBlock,
                 "the provider blocked the answer" + (r.refusal.empty() ? "" : ": " + r.refusal));
  }
  int64_t cap = spec.max_tokens > 0 ? spec.max_tokens : spec.plan->max_tokens;
  if (ThinkingUsedTheCap(r, spec.thinking.on(), cap)) {
    ++state.iterations;
    std::string used = r.usage.reasoning_tokens > 0
                           ? " (" + std::to_string(r.usage.reasoning_tokens) + " reasoning tokens)"
                           : "";
    return Error(spec, state, ErrorCode::kOutputCapExhausted,
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
    return Error(spec, state, ErrorCode::kInternal, "a check verdict with no answer under check");
  if (!lines.ok()) {
    bool cancelled = lines.status().code() == Code::kCancelled;
    return Error(spec, state, cancelled ? ErrorCode::kCancelled : ErrorCode::kCheckFailed,
                 lines.status().message());
  }
  PendingReply& p = *state.pending;
  if (lines->empty()) return Accept(spec, state, std::move(p.data));
  if (state.trace) TraceVerdict(state.trace.get(), "check", IssuesOfLines(*lines, "check"));
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
