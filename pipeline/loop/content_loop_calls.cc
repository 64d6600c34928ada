// The calls the content loop sends: the ProviderCall built from the plan and the conversation,
// and the turns a re-ask adds to the user's input (the rejected answer and why).
#include <algorithm>

#include "pipeline/loop/content_loop_internal.h"
#include "pipeline/loop/prompt.h"

namespace structure::pipeline::detail {

using providers::ProviderCall;
using providers::ProviderReply;
using providers::Role;
using providers::ToolCall;
using providers::Turn;

namespace {

ProviderCall MakeCall(const LoopSpec& spec, const LoopState& state) {
  const LoopPlan& plan = *spec.plan;
  PromptParts parts;
  parts.task = plan.task;
  parts.manual = plan.manual;
  parts.instructions = spec.instructions;
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
  parts.envelope_key = plan.envelope_key;
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
  call.temperature = spec.params.temperature;
  call.top_p = spec.params.top_p;
  call.seed = spec.params.seed;
  call.user = spec.params.user;
  if (plan.prompt_cache) {
    call.cache_key = plan.cache_key;
    call.cache_min_tokens = plan.cache_min_tokens;
  } else {
    call.cache_min_tokens = -1;
  }
  return call;
}

// Drops every turn after the user's input (the prompt's turn, or the whole conversation).
void KeepInput(const LoopSpec& spec, LoopState& state) {
  state.turns.resize(std::max<size_t>(1, spec.turns.size()));
}

}  // namespace

Step SendNext(const LoopSpec& spec, LoopState& state) {
  ProviderCall call = MakeCall(spec, state);
  int64_t prompt = providers::EstimatePromptTokens(call);
  state.last_call_cost = prompt + call.max_tokens;
  if (spec.token_budget > 0 && Used(state) + state.last_call_cost > spec.token_budget) {
    return OverBudget(spec, state, prompt, call.max_tokens);
  }
  TraceSent(state.trace.get(), call, state.iterations + 1);
  return SendCall{std::move(call)};
}

Turn AssistantTurn(const ProviderReply& reply) {
  Turn t;
  t.role = Role::kAssistant;
  t.text = reply.content;
  t.thoughts = reply.thoughts;
  t.text_signature = reply.text_signature;
  return t;
}

Step AskAgain(const LoopSpec& spec, LoopState& state, const ProviderReply& reply,
              const ToolCall* answer_call, std::string text, bool ok, ReaskReasons why) {
  if (state.trace) state.trace->rounds.back().reason = text;
  KeepInput(spec, state);
  Turn assistant = AssistantTurn(reply);
  if (answer_call != nullptr) {
    assistant.tool_calls.push_back(*answer_call);
    state.turns.push_back(std::move(assistant));
    Turn tool;
    tool.role = Role::kTool;
    tool.tool_call_id = answer_call->id;
    tool.tool_name = answer_call->name;
    tool.is_error = !ok;
    tool.text = std::move(text);
    state.turns.push_back(std::move(tool));
  } else {
    state.turns.push_back(std::move(assistant));
    Turn user;
    user.role = Role::kUser;
    user.text = std::move(text);
    state.turns.push_back(std::move(user));
  }
  state.pending.reset();
  Step next = SendNext(spec, state);
  if (std::holds_alternative<SendCall>(next)) CountReask(state.reasks, why);
  return next;
}

Step Reask(const LoopSpec& spec, LoopState& state, const ProviderReply& reply,
           const ToolCall* answer_call, std::string reason, std::vector<std::string> errors,
           ReaskReasons why) {
  state.last_errors = std::move(errors);
  state.evidence = Json();
  state.ungrounded = Json();
  if (auto stale = OutOfLoops(spec, state)) return *stale;
  return AskAgain(spec, state, reply, answer_call, std::move(reason), false, why);
}

Step ReaskTools(const LoopSpec& spec, LoopState& state) {
  PendingReply& p = *state.pending;
  state.evidence = Json();
  state.ungrounded = Json();
  if (auto stale = OutOfLoops(spec, state)) return *stale;
  ReaskReasons why = p.why;
  KeepInput(spec, state);
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
    if (state.trace) {
      std::string& reason = state.trace->rounds.back().reason;
      reason += (reason.empty() ? "" : "\n\n") + ("[" + tool.tool_name + "] " + tool.text);
    }
    state.turns.push_back(std::move(tool));
  }
  state.pending.reset();
  Step next = SendNext(spec, state);
  if (std::holds_alternative<SendCall>(next)) CountReask(state.reasks, why);
  return next;
}

}  // namespace structure::pipeline::detail
