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
#include "base/status.h"
#include "pipeline/result.h"
#include "pipeline/validator/validator.h"
#include "providers/call.h"

namespace structure::pipeline {

// Caller-supplied semantic check: runs after schema validation; returns violations as lines
// ("/reports/2: report r9 belongs to another group"), empty when the answer is accepted.
using SemanticCheck = std::function<std::vector<std::string>(const Json& data)>;

// What the schema stage decides for one schema, provider profile and set of options: fixed,
// immutable once built, and shared by every request that uses the same schema (the engine
// builds it once per distinct schema and caches it). The lowering parts come from Lower() as
// plain data.
struct LoopPlan {
  std::string manual;                              // registry manual, may be empty
  std::string task;                                // system prompt's task paragraph override
  std::shared_ptr<const Validator> validator;      // compiled ORIGINAL schema
  int64_t max_tokens = 2048;

  bool strict = true;                              // provider enforces provider_schema
  SharedJson provider_schema;                      // lowered schema sent to the provider
  Json original_schema;                            // shown in the prompt on the fallback path
  // Provider output -> the original shape (identity when empty). Takes the parsed answer by
  // value so that the unchanged parts move instead of being copied.
  std::function<Result<Json>(Json)> lift;
  providers::NeedChannel need = providers::NeedChannel::kEnvelope;
  std::string need_tool_name = "need_more_input";  // for NeedChannel::kTool
  SharedJson need_schema;                          // for NeedChannel::kTool
  // Finds the need text in a parsed answer (envelope forms); nullopt when it is an answer.
  std::function<std::optional<std::string>(const Json&)> detect_need;

  bool final_tool = false;                         // seed 001: answer = submit tool arguments
  std::string final_tool_name = "submit";
  int max_nudges = 2;

  bool array_mode = false;  // {type: array, items: T}: keep complete records of a truncated answer

  // Prompt caching: the key of the schema's stable prefix (ProviderCall::cache_key) and the
  // profile's choices; prompt_cache false sends neither key nor mark.
  std::string cache_key;
  bool prompt_cache = true;
  int64_t cache_min_tokens = 0;                    // 0 = the model's documented minimum
};

// One request's loop: the shared plan plus what differs per request.
struct LoopSpec {
  std::shared_ptr<const LoopPlan> plan;            // never null when the loop runs
  std::string prompt;                              // the user's free text
  std::string model;
  int max_loops = 3;                               // 1..10
  int64_t token_budget = 0;                        // 0 = none
  SemanticCheck semantic_check;
};

// Mutable per-request state, owned by the actor.
struct LoopState {
  int iterations = 0;
  int nudges = 0;
  providers::Usage usage;
  std::vector<providers::Turn> turns;  // the conversation sent on the next call
  std::vector<std::string> last_errors;
  ReaskCounts reasks{};                // re-asks sent, by reason
};

struct SendCall {
  providers::ProviderCall call;
};
struct Finish {
  StructureResult result;
};
using Step = std::variant<SendCall, Finish>;

// The first call.
Step Start(const LoopSpec& spec, LoopState& state);

// Decides the next step after a provider reply (or the pool's final error for the call).
Step OnReply(const LoopSpec& spec, LoopState& state, const Result<providers::ProviderReply>& reply);

// The stable error code for a transport/provider Status ("provider_unavailable", ...).
std::string ErrorCodeFor(const Status& status);

// Parses the complete elements of a possibly truncated JSON array text ("[{..},{..},{.." ->
// the first two). kInvalidArgument when no array starts in the text.
Result<Json> RecoverArrayPrefix(std::string_view text);

}  // namespace structure::pipeline
