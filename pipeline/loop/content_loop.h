// The content loop as a pure step function: the per-request actor sends what Start/OnReply
// return and feeds the provider's reply back in. No I/O, no actors; unit-tested directly.
//
//   call -> parse -> _need? -> lift -> validate against the ORIGINAL schema -> ok,
//   or build a reason and re-ask, until max_loops -> stale with the last errors.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "base/json.h"
#include "base/shared_json.h"
#include "config/engine_config.h"
#include "pipeline/files/input_files.h"
#include "pipeline/request.h"
#include "pipeline/result.h"
#include "pipeline/validator/validator.h"
#include "providers/call.h"
#include "structure/check.h"
#include "structure/status.h"

namespace structure::pipeline {

struct SplitLoopPlan;  // pipeline/loop/split_loop.h

// Caller-supplied semantic check (structure/check.h). It runs inside OnReply, on the caller's
// thread, so it must be quick; a slow or external check is a LoopSpec::external_check instead.
using structure::SemanticCheck;

// What the schema stage decides for one schema, provider profile and set of options: fixed,
// immutable once built, and shared by every request that uses the same schema (the engine
// builds it once per distinct schema and caches it). The lowering parts come from Lower() as
// plain data.
struct LoopPlan {
  std::string manual;                          // registry manual, may be empty
  std::string task;                            // system prompt's task paragraph override
  std::shared_ptr<const Validator> validator;  // compiled ORIGINAL schema
  int64_t max_tokens = 2048;

  bool strict = true;  // provider enforces provider_schema
  // A schema past the provider's limits, asked as strict parts (pipeline/loop/split_loop.h, driven
  // through pipeline/loop/loop_run.h); null: asked whole.
  std::shared_ptr<const SplitLoopPlan> split;
  std::string mode_reason;     // why fallback, or which limit split the schema; empty otherwise
  size_t grammar_size = 0;     // of what is sent (pipeline/lowering/measure.h): learned from
                               // when the provider refuses it as too large
  SharedJson provider_schema;  // lowered schema sent to the provider
  Json original_schema;        // shown in the prompt on the fallback path
  // Provider output -> the original shape (identity when empty). The unchanged parts of the
  // parsed answer move instead of being copied. kNotFound when the answer is not in the form the
  // provider was given (no envelope): `out` then holds the answer as far as it was unwrapped, to
  // be judged against the user's schema as it is. kSchemaViolation for a part that cannot be
  // restored, with the pointer in the user's shape.
  std::function<Result<Json>(Json& out)> lift;
  // The provider enforces provider_schema without showing it to the model (Ollama, vLLM): the
  // prompt shows it too, descriptions included.
  bool schema_in_prompt = false;
  providers::NeedChannel need = providers::NeedChannel::kEnvelope;
  bool need_envelope = false;  // kEnvelope as {"result", "_need"} (OpenAI strict), not a union
  std::string envelope_key = "result";             // the envelope's answer member (need_channel.h)
  std::string need_tool_name = "need_more_input";  // for NeedChannel::kTool
  SharedJson need_schema;                          // for NeedChannel::kTool
  // Finds the need text in a parsed answer (envelope forms); nullopt when it is an answer.
  std::function<std::optional<std::string>(const Json&)> detect_need;

  bool final_tool = false;  // the answer is the submit tool's arguments (agent-loop style)
  std::string final_tool_name = "submit";
  int max_nudges = 2;

  bool array_mode = false;  // {type: array, items: T}: keep complete records of a truncated answer
  // Evidence on: the provider form is evidence::EvidenceFormSchema around the schema; the answer's
  // leaves are checked against their quotes (pipeline/loop/evidence_step.h).
  config::EvidenceMode evidence = config::EvidenceMode::kOff;
  Json answer_schema;  // evidence on: the user's schema, whose keywords say how a leaf is checked

  // Prompt caching: the key of the schema's stable prefix (ProviderCall::cache_key) and the
  // profile's choices; prompt_cache false sends neither key nor mark.
  std::string cache_key;
  bool prompt_cache = true;
  int64_t cache_min_tokens = 0;  // 0 = the model's documented minimum
};

// One request's loop: the shared plan plus what differs per request.
struct LoopSpec {
  std::shared_ptr<const LoopPlan> plan;  // never null when the loop runs
  std::string prompt;                    // the user's free text
  // The first call's turns when not empty (a conversation, StructureRequest::turns); else one
  // user turn holding `prompt`.
  std::vector<providers::Turn> turns;
  std::string instructions;  // the caller's (system messages), in the manual block
  // Attached files, ready for the target's kind: they go in the first user turn, before its
  // text; their text (PDF pages, text files) is where evidence locates quotes besides the
  // prompt. Null: none.
  std::shared_ptr<const PreparedFiles> files;
  CallParams params;  // temperature, top_p, seed and user go on every call
  std::string model;
  int max_loops = 3;         // 1..10
  int64_t token_budget = 0;  // 0 = none
  SemanticCheck semantic_check;
  providers::Thinking thinking;  // the model's thinking settings
  int64_t max_tokens = 0;        // the output cap; 0 = the plan's
  // Where the user raises the cap, named when thinking used all of it, e.g.
  // "providers.openai.models.\"o3\".max_output_tokens".
  std::string cap_setting = "max_output_tokens";
  // An out-of-process check (a command): a schema-valid answer makes OnReply return RunCheck,
  // and the driver answers with OnCheck once the check is done.
  bool external_check = false;
  bool trace = false;  // record every round into LoopState::trace (pipeline/call_trace.h)
};

// The reply being judged while an external check runs on one of its answers.
struct PendingReply {
  providers::ProviderReply reply;
  std::vector<size_t> finals;        // final-tool mode: its calls of the final tool, in order
  size_t next = 0;                   // the final call being judged
  std::vector<std::string> results;  // per tool call: the result text sent back if re-asked
  std::vector<bool> rejected;        // per tool call: results[i] is an error
  int answer_call = -1;              // schema mode: the tool call holding the answer, or -1
  Json data;                         // the answer under check
  ReaskReasons why = 0;              // final-tool mode: why the rejected calls were rejected
};

// Mutable per-request state, owned by the actor.
struct LoopState {
  int iterations = 0;
  int nudges = 0;
  // Where the last nudge's two turns (the reply and the nudge) start in `turns` when the call in
  // flight is a nudge, else -1: the next nudge replaces them instead of piling up.
  int nudge_at = -1;
  bool form_ignored = false;  // the accepted answer skipped the form the provider was given
  providers::Usage usage;
  std::vector<providers::Turn> turns;  // the conversation sent on the next call
  std::vector<std::string> last_errors;
  std::optional<PendingReply> pending;  // set while a reply is being judged
  ReaskCounts reasks{};                 // re-asks sent, by reason
  Json evidence;                        // evidence on: the accepted answer's (pipeline/result.h)
  Json ungrounded;
  std::shared_ptr<CallTrace> trace;  // set by Start when LoopSpec::trace; null = not recorded
  // Array mode: the complete records of the cut-off answers so far, while a continuation asks
  // for the rest (null otherwise); `truncated`: the accepted records lack some at the end.
  Json partial;
  bool truncated = false;
  int64_t last_call_cost = 0;  // the last call's estimate: prompt tokens + output cap
};

struct SendCall {
  providers::ProviderCall call;
};
struct Finish {
  CallResult result;
};
// Run the external check on `data` (a schema-valid answer) and call OnCheck with its lines.
struct RunCheck {
  Json data;
};
using Step = std::variant<SendCall, Finish, RunCheck>;

// The first call.
Step Start(const LoopSpec& spec, LoopState& state);

// Decides the next step after a provider reply (or the pool's final error for the call).
//
// Final-tool mode: the reply's calls of the final tool are judged in order; the first
// one that passes validation and the checks ends the run (later calls are not run), so a
// rejected call followed by a valid one takes the valid one, and a valid call beats a need call
// in the same reply. When every final call is rejected, each goes back as a tool error (other
// calls as "not run") — or the reply's need call, if any, ends the run as need-more-input. An
// answer in prose gets up to max_nudges nudges, which do not count as iterations.
Step OnReply(const LoopSpec& spec, LoopState& state, const Result<providers::ProviderReply>& reply);

// Ends the loop with an error that is no reply of the provider (a provider batch that expired,
// was cancelled or failed): the result keeps the iterations and usage so far.
Finish FailLoop(const LoopSpec& spec, LoopState& state, ErrorCode code, std::string message);
// The external check's verdict on RunCheck::data: its violation lines (empty = accepted), or
// why it could not judge (the call ends `error` with code kCheckFailed).
Step OnCheck(const LoopSpec& spec, LoopState& state, const Result<std::vector<std::string>>& lines);

// The result error code for a transport/provider Status (kProviderUnavailable, ...).
ErrorCode ErrorCodeFor(const Status& status);

}  // namespace structure::pipeline
