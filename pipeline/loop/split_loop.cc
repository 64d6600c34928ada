#include "pipeline/loop/split_loop.h"

#include <algorithm>
#include <map>
#include <memory>

#include "pipeline/call_trace.h"
#include "pipeline/loop/reason.h"
#include "pipeline/lowering/split_merge.h"

namespace structure::pipeline {
namespace {

using providers::Role;
using providers::Turn;

constexpr size_t kMaxShownEntries = 4000;  // characters of a list shown to line up with

const SplitLoopPlan& PlanOf(const LoopSpec& spec) { return *spec.plan->split; }

// A part's (or a re-ask's) loop: the request's input (prompt or conversation, instructions,
// call parameters), model, caps and trace on its own plan. Checks and the token budget belong to
// the whole run (each call is checked against it before it is sent, Affords).
LoopSpec SubSpec(const LoopSpec& whole, std::shared_ptr<const LoopPlan> plan, int max_loops) {
  LoopSpec s;
  s.plan = std::move(plan);
  s.prompt = whole.prompt;
  s.turns = whole.turns;
  s.instructions = whole.instructions;
  s.params = whole.params;
  s.model = whole.model;
  s.max_loops = std::max(1, max_loops);
  s.thinking = whole.thinking;
  s.max_tokens = whole.max_tokens;
  s.cap_setting = whole.cap_setting;
  s.trace = whole.trace;
  return s;
}

providers::Usage TotalUsage(const SplitState& st) {
  providers::Usage u;
  for (const SubRun& r : st.runs) u += r.state.usage;
  return u;
}

int64_t TokensUsed(const SplitState& st) {
  providers::Usage u = TotalUsage(st);
  return u.input_tokens + u.output_tokens;
}

// What the calls in flight may still cost: each one's estimate (prompt + output cap).
int64_t InFlightCost(const SplitState& st) {
  int64_t cost = 0;
  for (const SubRun& r : st.runs)
    if (r.in_flight) cost += r.state.last_call_cost;
  return cost;
}

// The budget pays for calls costing `cost` besides what is used and what is in flight; when it
// does not, the refusal is kept for the message.
bool Affords(const LoopSpec& spec, SplitState& st, int64_t cost) {
  if (spec.token_budget <= 0 || TokensUsed(st) + InFlightCost(st) + cost <= spec.token_budget)
    return true;
  st.refused_cost = std::max(st.refused_cost, cost);
  return false;
}

std::string BudgetLine(const LoopSpec& spec, const SplitState& st) {
  return "token budget exhausted: tokenBudget " + std::to_string(spec.token_budget) +
         ": the next call of the split needs about " + std::to_string(st.refused_cost) +
         " tokens (prompt estimate + output cap), and " + std::to_string(TokensUsed(st)) +
         " are used";
}

// Every call's rounds in one trace, in the order the calls were made: a round's iteration
// counts the split's rounds, and it names its part and the fields it answers.
std::shared_ptr<const CallTrace> MergeTraces(const SplitState& st) {
  std::shared_ptr<CallTrace> out;
  for (const SubRun& run : st.runs) {
    const CallTrace* t =
        run.result && run.result->call_trace ? run.result->call_trace.get() : run.state.trace.get();
    if (t == nullptr) continue;
    if (!out) out = std::make_shared<CallTrace>();
    for (TraceRound round : t->rounds) {
      round.iteration += run.first_round;
      round.part = run.part;
      round.fields = run.pointers;
      out->rounds.push_back(std::move(round));
    }
  }
  return out;
}

// Evidence of the accepted answers, later runs over earlier ones.
void MergeEvidence(const SplitState& st, CallResult& r) {
  Json evidence, ungrounded;
  for (const SubRun& run : st.runs) {
    if (!run.result || run.result->status == Outcome::kError) continue;
    if (run.result->evidence.is_object()) {
      if (evidence.is_null()) evidence = Json::MakeObject();
      for (const auto& [k, v] : run.result->evidence.as_object()) evidence.set(k, v);
    }
    if (run.result->ungrounded.is_array()) {
      if (ungrounded.is_null()) ungrounded = Json::MakeArray();
      for (const Json& p : run.result->ungrounded.as_array()) ungrounded.push_back(p);
    }
  }
  if (ungrounded.is_array() && evidence.is_object()) {
    Json kept = Json::MakeArray();
    for (const Json& p : ungrounded.as_array())
      if (!(p.is_string() && evidence.contains(p.as_string()))) kept.push_back(p);
    ungrounded = std::move(kept);
  }
  r.evidence = std::move(evidence);
  r.ungrounded = std::move(ungrounded);
}

Finish Done(const LoopSpec& spec, SplitState& st, CallResult r) {
  r.usage = TotalUsage(st);
  r.iterations = st.rounds;
  for (const SubRun& run : st.runs) {
    for (size_t i = 0; i < r.reasks.size(); ++i) r.reasks[i] += run.state.reasks[i];
    r.form_ignored = r.form_ignored || (r.status == Outcome::kOk && run.state.form_ignored);
  }
  for (size_t i = 0; i < r.reasks.size(); ++i) r.reasks[i] += st.reasks[i];
  r.call_trace = MergeTraces(st);
  r.mode = "split";
  r.parts = static_cast<int>(PlanOf(spec).parts.size());
  r.mode_reason = spec.plan->mode_reason;
  if (r.status == Outcome::kOk || r.status == Outcome::kNeedMoreInput) MergeEvidence(st, r);
  return Finish{std::move(r)};
}

Finish Stale(const LoopSpec& spec, SplitState& st, std::vector<std::string> errors,
             bool budget = false) {
  CallResult r;
  r.status = Outcome::kStale;
  r.errors = std::move(errors);
  r.budget_exhausted = budget;
  return Done(spec, st, std::move(r));
}

// The run's end when a loop of the batch ended without an answer.
std::optional<Finish> Unanswered(const LoopSpec& spec, SplitState& st) {
  const CallResult *error = nullptr, *stale = nullptr;
  std::string need;
  bool abandoned = false;
  for (size_t i : st.batch) {
    const std::optional<CallResult>& res = st.runs[i].result;
    if (!res) {
      abandoned = true;
      continue;
    }
    if (res->status == Outcome::kError && (!error || res->error_code == ErrorCode::kSchemaTooLarge))
      error = &*res;
    if (res->status == Outcome::kStale && !stale) stale = &*res;
    if (res->status == Outcome::kNeedMoreInput) need += (need.empty() ? "" : "; ") + res->need;
  }
  if (error) {
    CallResult r = ErrorResult(error->error_code, error->errors.empty() ? "" : error->errors[0]);
    r.rejected_grammar = error->rejected_grammar;
    return Done(spec, st, std::move(r));
  }
  if (stale) return Stale(spec, st, stale->errors, stale->budget_exhausted);
  if (!need.empty()) {
    CallResult r;
    r.status = Outcome::kNeedMoreInput;
    r.need = std::move(need);
    return Done(spec, st, std::move(r));
  }
  if (abandoned) return Stale(spec, st, {BudgetLine(spec, st)}, true);
  return std::nullopt;
}

// A call to make in the next round: a part again, or a constraint's re-ask.
struct Ask {
  int part = -1;
  size_t cross = 0;
  std::string reason;
};

RunStep Reask(const LoopSpec& spec, SplitState& st, const std::vector<Ask>& asks,
              const Json& merged, std::vector<std::string> errors, ReaskReasons why) {
  if (asks.empty()) return Stale(spec, st, std::move(errors));
  if (st.rounds >= spec.max_loops) return Stale(spec, st, std::move(errors));
  const SplitLoopPlan& plan = PlanOf(spec);
  SendCalls out;
  std::vector<SubRun> runs;
  int64_t cost = 0;
  for (const Ask& a : asks) {
    SubRun r;
    r.part = a.part;
    r.first_round = st.rounds;
    bool part = a.part >= 0;
    r.pointers =
        part ? plan.plan.parts[a.part].pointers : plan.plan.cross[a.cross].constraint.pointers;
    r.spec =
        SubSpec(spec, part ? plan.parts[a.part] : plan.cross[a.cross], spec.max_loops - st.rounds);
    Step first = Start(r.spec, r.state);
    auto* send = std::get_if<SendCall>(&first);
    if (!send) continue;
    // The previous answer for exactly these fields, and what is wrong with it.
    Turn said;
    said.role = Role::kAssistant;
    said.text = ToJson(part ? st.answers[a.part] : Project(merged, r.pointers));
    Turn reason;
    reason.role = Role::kUser;
    reason.text = a.reason;
    r.state.turns.push_back(std::move(said));
    r.state.turns.push_back(std::move(reason));
    send->call.turns = r.state.turns;
    r.state.last_call_cost = providers::EstimatePromptTokens(send->call) + send->call.max_tokens;
    cost += r.state.last_call_cost;
    r.in_flight = true;
    int slot = static_cast<int>(st.runs.size() + runs.size());
    runs.push_back(std::move(r));
    out.calls.push_back({slot, std::move(send->call)});
  }
  if (!Affords(spec, st, cost)) {
    errors.push_back(BudgetLine(spec, st));
    return Stale(spec, st, std::move(errors), true);
  }
  CountReask(st.reasks, why);
  st.batch.clear();
  for (SubRun& r : runs) {
    st.batch.push_back(st.runs.size());
    st.runs.push_back(std::move(r));
  }
  return out;
}

std::string AlignReason(const Misaligned& m) {
  std::string entries = ToJson(m.anchor_entries);
  if (entries.size() > kMaxShownEntries) entries = entries.substr(0, kMaxShownEntries) + "…";
  size_t n = m.anchor_entries.is_array() ? m.anchor_entries.size() : 0;
  return "The list " + (m.list.empty() ? std::string("(root)") : m.list) + " must hold exactly " +
         std::to_string(n) +
         " entries, the same ones in the same order as this list of them (other fields of the "
         "same entries, asked separately):\n" +
         entries + "\n\nGive your fields for each of these entries, in this order.";
}

// The part owning each line's pointer ("/a/0: ..."), or every part.
std::map<size_t, std::vector<std::string>> LinesByPart(const SplitPlan& plan,
                                                       const std::vector<std::string>& lines) {
  std::map<size_t, std::vector<std::string>> out;
  for (const std::string& line : lines) {
    int owner = -1;
    if (!line.empty() && line[0] == '/') owner = OwnerOf(plan, line.substr(0, line.find(':')));
    if (owner >= 0) {
      out[static_cast<size_t>(owner)].push_back(line);
    } else {
      for (size_t i = 0; i < plan.parts.size(); ++i) out[i].push_back(line);
    }
  }
  return out;
}

RunStep ReaskChecked(const LoopSpec& spec, SplitState& st, const Json& merged,
                     const std::vector<std::string>& lines) {
  std::vector<Ask> asks;
  for (auto& [part, mine] : LinesByPart(PlanOf(spec).plan, lines))
    asks.push_back({static_cast<int>(part), 0, BuildCheckReason(mine)});
  return Reask(spec, st, asks, merged, lines, ReasonBit(ReaskReason::kSemantic));
}

Finish Accept(const LoopSpec& spec, SplitState& st, Json data) {
  CallResult r;
  r.status = Outcome::kOk;
  r.data = std::move(data);
  return Done(spec, st, std::move(r));
}

// The merged answer against the ORIGINAL schema, then the checks.
RunStep Judge(const LoopSpec& spec, SplitState& st) {
  const SplitLoopPlan& plan = PlanOf(spec);
  Merged m = MergeAnswers(plan.plan, st.answers);
  if (!m.misaligned.empty()) {
    std::map<size_t, std::string> reasons;
    std::vector<std::string> lines;
    for (const Misaligned& x : m.misaligned) {
      std::string& r = reasons[x.part];
      r += (r.empty() ? "" : "\n\n") + AlignReason(x);
      lines.push_back((x.list.empty() ? std::string("(root)") : x.list) +
                      ": the parts of the answer list other entries");
    }
    std::vector<Ask> asks;
    for (auto& [part, reason] : reasons) asks.push_back({static_cast<int>(part), 0, reason});
    return Reask(spec, st, asks, m.value, lines, ReasonBit(ReaskReason::kItems));
  }
  for (const auto& [pointers, data] : st.fixes) ReplaceFields(m.value, data, pointers);
  ValidationResult v = spec.plan->validator->Validate(m.value, true);
  if (!v.valid) {
    std::map<size_t, std::vector<ValidationError>> by_part;
    std::map<size_t, std::vector<ValidationError>> by_cross;
    for (const ValidationError& e : v.errors) {
      std::string missing;
      if (const Json* p = e.params.find("missingProperty"); p && p->is_string())
        missing = p->as_string();
      Attribution a = Attribute(plan.plan, e.instance_path, e.schema_path, missing);
      if (a.kind == Attribution::Kind::kCross) by_cross[a.cross].push_back(e);
      for (size_t p : a.parts) by_part[p].push_back(e);
    }
    std::vector<Ask> asks;
    if (!by_cross.empty()) {
      // One call holding exactly the fields of the first constraint that failed.
      auto& [index, errors] = *by_cross.begin();
      asks.push_back({-1, index, BuildReason(errors)});
    } else {
      for (auto& [part, errors] : by_part)
        asks.push_back({static_cast<int>(part), 0, BuildReason(errors)});
    }
    return Reask(spec, st, asks, m.value, ErrorMessages(v.errors), ReaskReasonsOf(v.errors));
  }
  if (spec.semantic_check) {
    std::vector<std::string> lines = spec.semantic_check(m.value);
    if (!lines.empty()) return ReaskChecked(spec, st, m.value, lines);
  }
  if (spec.external_check) {
    st.merged = m.value;
    return RunCheck{std::move(m.value)};
  }
  return Accept(spec, st, std::move(m.value));
}

// Every loop of the round has ended: the answers in, or the run over.
RunStep BatchDone(const LoopSpec& spec, SplitState& st) {
  int used = 0;
  for (size_t i : st.batch) used = std::max(used, st.runs[i].state.iterations);
  st.rounds += used;
  if (std::optional<Finish> end = Unanswered(spec, st)) return *end;
  for (size_t i : st.batch) {
    SubRun& r = st.runs[i];
    if (r.part < 0) {
      st.fixes.push_back({r.pointers, r.result->data});
      continue;
    }
    st.answers[static_cast<size_t>(r.part)] = r.result->data;
    // The part answered again: earlier re-asks over its fields give way.
    std::erase_if(st.fixes, [&](const auto& fix) {
      for (const std::string& p : fix.first)
        for (const std::string& q : r.pointers)
          if (PointerWithin(p, q) || PointerWithin(q, p)) return true;
      return false;
    });
  }
  return Judge(spec, st);
}

// Applies a loop's step: its next call, or its end.
RunStep Continue(const LoopSpec& spec, SplitState& st, size_t slot, Step step) {
  SubRun& r = st.runs[slot];
  if (auto* send = std::get_if<SendCall>(&step)) {
    if (!st.stopping && Affords(spec, st, r.state.last_call_cost)) {
      r.in_flight = true;
      SendCalls out;
      out.calls.push_back({static_cast<int>(slot), std::move(send->call)});
      return out;
    }
    st.stopping = true;  // no new calls: this loop ends without an answer
  } else if (auto* fin = std::get_if<Finish>(&step)) {
    r.result = std::move(fin->result);
    if (r.result->status != Outcome::kOk) st.stopping = true;
  } else {
    r.result = ErrorResult(ErrorCode::kInternal, "a part of a split asked for an external check");
    st.stopping = true;
  }
  for (size_t i : st.batch)
    if (st.runs[i].in_flight) return SendCalls{};
  return BatchDone(spec, st);
}

}  // namespace

RunStep SplitStart(const LoopSpec& spec, SplitState& st) {
  st = SplitState{};
  const SplitLoopPlan& plan = PlanOf(spec);
  st.answers.assign(plan.parts.size(), Json::MakeObject());
  int64_t cost = 0;
  SendCalls out;
  for (size_t i = 0; i < plan.parts.size(); ++i) {
    SubRun r;
    r.part = static_cast<int>(i);
    r.pointers = plan.plan.parts[i].pointers;
    r.spec = SubSpec(spec, plan.parts[i], spec.max_loops);
    Step first = Start(r.spec, r.state);
    if (auto* send = std::get_if<SendCall>(&first)) {
      r.in_flight = true;
      cost += r.state.last_call_cost;
      out.calls.push_back({static_cast<int>(i), std::move(send->call)});
    } else if (auto* fin = std::get_if<Finish>(&first)) {
      r.result = std::move(fin->result);
    }
    st.runs.push_back(std::move(r));
    st.batch.push_back(i);
  }
  if (spec.token_budget > 0 && cost > spec.token_budget) {
    // Before any call: the parts' first calls together cost more than the whole budget.
    for (SubRun& r : st.runs) r.in_flight = false;
    return Done(spec, st,
                ErrorResult(ErrorCode::kTokenBudgetExhausted,
                            "tokenBudget " + std::to_string(spec.token_budget) + ": the " +
                                std::to_string(plan.parts.size()) +
                                " parts of the split schema need about " + std::to_string(cost) +
                                " tokens for their first calls (prompt estimates + output caps); "
                                "raise tokenBudget (or lower the model's max_output_tokens)"));
  }
  if (out.calls.size() < st.batch.size()) {
    // A part's loop ended before its first call: the run ends once the others are back.
    st.stopping = true;
    if (out.calls.empty()) return BatchDone(spec, st);
  }
  return out;
}

RunStep SplitOnReply(const LoopSpec& spec, SplitState& st, int slot,
                     const Result<providers::ProviderReply>& reply) {
  if (slot < 0 || static_cast<size_t>(slot) >= st.runs.size() || !st.runs[slot].in_flight)
    return SendCalls{};
  SubRun& r = st.runs[slot];
  r.in_flight = false;
  Step step = OnReply(r.spec, r.state, reply);
  return Continue(spec, st, static_cast<size_t>(slot), std::move(step));
}

RunStep SplitOnCheck(const LoopSpec& spec, SplitState& st,
                     const Result<std::vector<std::string>>& lines) {
  if (!lines.ok()) {
    bool cancelled = lines.status().code() == Code::kCancelled;
    return Done(spec, st,
                ErrorResult(cancelled ? ErrorCode::kCancelled : ErrorCode::kCheckFailed,
                            lines.status().message()));
  }
  Json merged = std::move(st.merged);
  if (lines->empty()) return Accept(spec, st, std::move(merged));
  return ReaskChecked(spec, st, merged, *lines);
}

Finish SplitFail(const LoopSpec& spec, SplitState& st, ErrorCode code, std::string message) {
  return Done(spec, st, ErrorResult(code, std::move(message)));
}

}  // namespace structure::pipeline
