#include "pipeline/content_loop.h"

#include "pipeline/extract_json.h"
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
  parts.schema_in_prompt = !plan.strict;
  parts.schema = plan.strict ? nullptr : &plan.original_schema;
  parts.need = plan.need;
  parts.need_tool_name = plan.need_tool_name;
  parts.final_tool = plan.final_tool;
  parts.final_tool_name = plan.final_tool_name;

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
  call.max_tokens = plan.max_tokens;
  if (plan.prompt_cache) {
    call.cache_key = plan.cache_key;
    call.cache_min_tokens = plan.cache_min_tokens;
  } else {
    call.cache_min_tokens = -1;
  }
  return call;
}

Finish Done(const LoopState& state, StructureResult result, const LoopSpec& spec) {
  result.iterations = state.iterations;
  result.usage = state.usage;
  result.reasks = state.reasks;
  result.mode = spec.plan->strict ? "strict" : "fallback";
  return Finish{std::move(result)};
}

Finish Error(const LoopSpec& spec, const LoopState& state, std::string code, std::string message) {
  return Done(state, ErrorResult(std::move(code), std::move(message)), spec);
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

// Default need detection: {"_need": "..."} with no other non-null member.
std::optional<std::string> DefaultDetectNeed(const Json& v) {
  const Json* need = v.find("_need");
  if (need == nullptr || !need->is_string()) return std::nullopt;
  for (const auto& [k, m] : v.as_object()) {
    if (k != "_need" && !m.is_null()) return std::nullopt;
  }
  return need->as_string();
}

const ToolCall* FindTool(const ProviderReply& r, const std::string& name) {
  for (const auto& tc : r.tool_calls) {
    if (tc.name == name) return &tc;
  }
  return nullptr;
}

// Re-asks with the minimal context: the user's text, the previous answer, the reason. Earlier
// failed rounds are not resent (they only grow the bill).
Step Reask(const LoopSpec& spec, LoopState& state, const ProviderReply& reply,
           const ToolCall* answer_call, std::string reason, std::vector<std::string> errors,
           ReaskReasons why) {
  state.last_errors = std::move(errors);
  if (state.iterations >= spec.max_loops) {
    StructureResult r;
    r.status = Outcome::kStale;
    r.errors = state.last_errors;
    return Done(state, std::move(r), spec);
  }
  int64_t used = state.usage.input_tokens + state.usage.output_tokens;
  if (spec.token_budget > 0 && used >= spec.token_budget) {
    StructureResult r;
    r.status = Outcome::kStale;
    r.errors = state.last_errors;
    r.errors.push_back("token budget exhausted: used " + std::to_string(used) + " of " +
                       std::to_string(spec.token_budget) + " tokens");
    return Done(state, std::move(r), spec);
  }
  CountReask(state.reasks, why);
  Turn first = state.turns.front();
  state.turns.clear();
  state.turns.push_back(std::move(first));
  Turn assistant;
  assistant.role = Role::kAssistant;
  assistant.text = reply.content;
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
  return SendCall{MakeCall(spec, state)};
}

Step ReaskLines(const LoopSpec& spec, LoopState& state, const ProviderReply& reply,
                const ToolCall* answer_call, std::vector<std::string> lines,
                ReaskReasons why = ReasonBit(ReaskReason::kParse)) {
  std::string reason = BuildReasonFromLines(lines);
  return Reask(spec, state, reply, answer_call, std::move(reason), std::move(lines), why);
}

// Validates a value in the original shape; ok, or a re-ask.
Step Judge(const LoopSpec& spec, LoopState& state, const ProviderReply& reply,
           const ToolCall* answer_call, Json data) {
  ValidationResult vr = spec.plan->validator->Validate(data, true);
  if (!vr.valid) {
    return Reask(spec, state, reply, answer_call, BuildReason(vr.errors), ErrorMessages(vr.errors),
                 ReaskReasonsOf(vr.errors));
  }
  if (spec.semantic_check) {
    std::vector<std::string> lines = spec.semantic_check(data);
    if (!lines.empty()) {
      return ReaskLines(spec, state, reply, answer_call, std::move(lines),
                        ReasonBit(ReaskReason::kSemantic));
    }
  }
  StructureResult r;
  r.status = Outcome::kOk;
  r.data = std::move(data);
  return Done(state, std::move(r), spec);
}

}  // namespace

std::string ErrorCodeFor(const Status& status) {
  switch (status.code()) {
    case Code::kUnauthenticated:
    case Code::kPermissionDenied: return "provider_auth";
    case Code::kResourceExhausted: return "provider_rate_limited";
    case Code::kUnavailable: return "provider_unavailable";
    case Code::kDeadlineExceeded: return "deadline_exceeded";
    case Code::kCancelled: return "cancelled";
    case Code::kInvalidArgument: return "provider_rejected_request";
    case Code::kNotFound: return "not_found";
    default: return "internal";
  }
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
  if (!reply.ok()) return Error(spec, state, ErrorCodeFor(reply.status()), reply.status().message());
  const ProviderReply& r = *reply;
  const LoopPlan& plan = *spec.plan;
  ++state.iterations;
  state.usage += r.usage;

  if (r.finish == FinishKind::kRefusal) {
    return Error(spec, state, "refusal",
                 "the model declined: " + (r.refusal.empty() ? r.content : r.refusal));
  }
  if (r.finish == FinishKind::kSafety) {
    return Error(spec, state, "safety_block",
                 "the provider blocked the answer" + (r.refusal.empty() ? "" : ": " + r.refusal));
  }
  if (plan.need == providers::NeedChannel::kTool) {
    if (const ToolCall* need = FindTool(r, plan.need_tool_name)) {
      StructureResult res;
      res.status = Outcome::kNeedMoreInput;
      res.need = NeedText(*need);
      return Done(state, std::move(res), spec);
    }
  }

  const ToolCall* answer_call = nullptr;
  std::string text = r.content;
  if (plan.final_tool) {
    answer_call = FindTool(r, plan.final_tool_name);
    if (answer_call == nullptr) {
      if (state.nudges >= plan.max_nudges || state.iterations >= spec.max_loops) {
        return Error(spec, state, "no_final_answer",
                     "the model answered in prose " + std::to_string(state.nudges + 1) +
                         " times and never called the final tool \"" + plan.final_tool_name +
                         "\"");
      }
      ++state.nudges;
      CountReask(state.reasks, ReasonBit(ReaskReason::kParse));  // not in the form asked
      Turn assistant;
      assistant.role = Role::kAssistant;
      assistant.text = r.content;
      state.turns.push_back(std::move(assistant));
      Turn nudge;
      nudge.role = Role::kUser;
      nudge.text = FinalToolNudge(plan.final_tool_name);
      state.turns.push_back(std::move(nudge));
      return SendCall{MakeCall(spec, state)};
    }
    text = answer_call->arguments;
  } else if (!r.tool_calls.empty() && r.content.empty()) {
    answer_call = &r.tool_calls.front();  // providers that answer through a forced tool
    text = answer_call->arguments;
  }

  if (r.finish == FinishKind::kLength) {
    if (plan.array_mode) {
      auto records = RecoverArrayPrefix(text);
      if (records.ok() && records->size() > 0) return Judge(spec, state, r, answer_call, *records);
    }
    return ReaskLines(spec, state, r, answer_call,
                      {"(root): the answer was cut off at the token limit; answer more concisely"});
  }

  Json parsed;
  if (plan.strict && answer_call == nullptr) {
    auto p = ParseStrict(text);
    if (!p.ok()) {
      // Strict output that does not parse is rare (a provider bug); the tolerant parser may
      // still find it, and a reason is sent otherwise.
      auto e = ExtractJson(text);
      if (!e.ok()) {
        return ReaskLines(spec, state, r, answer_call,
                          {"(root): the answer is not valid JSON: " + e.status().message()});
      }
      parsed = std::move(e->value);
    } else {
      parsed = std::move(*p);
    }
  } else {
    auto e = ExtractJson(text);
    if (!e.ok()) {
      return ReaskLines(spec, state, r, answer_call,
                        {"(root): the answer is not valid JSON: " + e.status().message()});
    }
    parsed = std::move(e->value);
  }

  std::optional<std::string> need =
      plan.detect_need ? plan.detect_need(parsed)
                       : (parsed.is_object() ? DefaultDetectNeed(parsed) : std::nullopt);
  if (need) {
    StructureResult res;
    res.status = Outcome::kNeedMoreInput;
    res.need = *need;
    return Done(state, std::move(res), spec);
  }

  Json data = std::move(parsed);
  if (plan.lift) {
    auto lifted = plan.lift(std::move(data));
    if (!lifted.ok()) {
      return ReaskLines(spec, state, r, answer_call, {"(root): " + lifted.status().message()});
    }
    data = std::move(*lifted);
  }
  return Judge(spec, state, r, answer_call, std::move(data));
}

Result<Json> RecoverArrayPrefix(std::string_view text) {
  size_t i = text.find('[');
  if (i == std::string_view::npos) return InvalidArgument("no JSON array in the answer");
  ++i;
  Json out = Json::MakeArray();
  auto skip = [&] {
    while (i < text.size() && (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' ||
                               text[i] == '\t' || text[i] == ',')) {
      ++i;
    }
  };
  while (true) {
    skip();
    if (i >= text.size() || text[i] == ']') break;
    // Find the element's end by scanning with string and bracket awareness.
    size_t start = i;
    int depth = 0;
    bool in_string = false;
    size_t end = std::string_view::npos;
    for (size_t k = start; k < text.size(); ++k) {
      char c = text[k];
      if (in_string) {
        if (c == '\\') ++k;
        else if (c == '"') in_string = false;
        if (!in_string && depth == 0) {
          end = k + 1;
          break;
        }
        continue;
      }
      if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (depth == 0) {
          end = k;
          break;
        }
        if (--depth == 0) {
          end = k + 1;
          break;
        }
      } else if (c == ',' && depth == 0) {
        end = k;
        break;
      }
    }
    if (end == std::string_view::npos) break;  // the truncated tail
    auto v = ParseStrict(text.substr(start, end - start));
    if (!v.ok()) break;
    out.push_back(std::move(*v));
    i = end;
  }
  return out;
}

}  // namespace structure::pipeline
