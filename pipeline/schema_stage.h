// The schema stage's pure parts: compiling the resolved schema (inline, registry or builder)
// and turning request + schema + capability profile into the content loop's spec (lowering,
// lifting and the need channel wired in).
#pragma once

#include <memory>
#include <string>

#include "base/json.h"
#include "config/engine_config.h"
#include "pipeline/loop/content_loop.h"
#include "pipeline/lowering/lower.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/request.h"
#include "pipeline/validator/validator.h"
#include "structure/status.h"

namespace structure::pipeline {

struct ResolvedSchema {
  Json schema;                                 // the ORIGINAL schema
  std::shared_ptr<const Validator> validator;  // compiled once, shared
  std::string manual;                          // registry manual, may be empty
  std::string origin;                          // inline | registry:... | inferred
  std::string version;                         // registry version, may be empty
  std::string name;                            // registry name; empty for inline / inferred
};

// The one check every path runs on a user's schema before any call (run, batch, HTTP, MCP,
// `schema lower|check`, `validate`): the validator compiles it, fail closed. kInvalidArgument
// "schema <path>: <what is wrong>" for bad keyword values, an unresolvable $ref (unless
// options.allow_unresolved_refs), a pattern no engine can run, a $ref cycle.
Result<std::shared_ptr<const Validator>> CheckSchema(const Json& schema,
                                                     const ValidatorOptions& options = {});

// Compiles `schema` (CheckSchema); its errors are the request's `bad_schema`.
Result<ResolvedSchema> ResolveSchema(Json schema, std::string origin, std::string manual = "",
                                     std::string version = "", bool allow_unresolved_refs = false);

// The prompt-cache key of calls on `schema` (ProviderCall::cache_key): "<name>@<version>" for a
// registry schema, "<origin>:<16 hex digits hashing the schema>" otherwise; at most 64
// characters (OpenAI's limit: a longer name keeps its first 47 and appends "~" and the hash).
std::string PromptCacheKey(const ResolvedSchema& schema);

// What besides the schema and the profile shapes a plan: everything the engine's plan cache
// keys on (PlanOptionsKey).
struct PlanOptions {
  bool require_provider_strict_output = true;  // settings: false asks in plain JSON mode
  bool final_tool = false;                     // request: answer through a submit tool
  bool array_mode = false;                     // request: keep complete records when cut off
  // settings: off, or the provider form asks for {path, quote} evidence beside the answer
  config::EvidenceMode evidence = config::EvidenceMode::kOff;
  // settings: the schema compiles with $refs that resolve nowhere (ResolveSchema); the cached
  // plan holds the compiled schema, so it is part of the key.
  bool allow_unresolved_refs = false;
  // Why strict output is not asked for when require_provider_strict_output is false: the
  // result's modeReason. PlanOptionsFor names the setting; the engine names a model without
  // structured outputs (providers::NoStructuredOutputsReason).
  std::string plain_reason;

  bool operator==(const PlanOptions&) const = default;
};

// The modeReason of a call asked in plain JSON mode because requireProviderStrictOutput is false.
extern const char kStrictOutputNotRequired[];

// A text that differs exactly when the options differ ("strict tool evidence=report"): the
// options' part of the plan cache key. It names every field, so a field added to PlanOptions
// does not compile until it is part of the key.
std::string PlanOptionsKey(const PlanOptions& options);

// Builds the content loop's plan for a schema: lowers it for `profile` (strict; split into
// strict parts when it is past the profile's limits, pipeline/loop/split_loop.h; or the fallback
// path when no sound lowering exists or strict output is not required) and wires Lift and
// need detection. The result depends only on its arguments, so the engine caches it.
Result<std::shared_ptr<LoopPlan>> MakeLoopPlan(const ResolvedSchema& schema, const Profile& profile,
                                               const PlanOptions& options);

// The plan for a schema lowered already: `low` is Lower's result for `asked`, the schema as the
// provider is asked for it (the user's, or the evidence form around it).
std::shared_ptr<LoopPlan> MakeLoopPlanFrom(const ResolvedSchema& schema, const Profile& profile,
                                           const PlanOptions& options, const Json& asked,
                                           Lowered low);

// The plan's options for a request under `settings`.
PlanOptions PlanOptionsFor(const StructureRequest& request, const config::Settings& settings);

// The loop for one request: a fresh plan (MakeLoopPlan) plus the request's prompt, the model and
// the loop limits from `settings`.
Result<LoopSpec> MakeContentSpec(const StructureRequest& request, const ResolvedSchema& schema,
                                 const Profile& profile, const config::Settings& settings,
                                 const std::string& model);

// The loop for one request on a plan that already exists (e.g. from the engine's cache).
LoopSpec MakeLoopSpec(std::shared_ptr<const LoopPlan> plan, std::string prompt,
                      const config::Settings& settings, const std::string& model);

// Moves the request's conversation and instructions into `spec` and applies its call parameters
// over the target's (after ApplyTarget): its max_tokens replaces the output cap, its
// reasoning_effort the configured effort.
void TakeConversation(StructureRequest& request, LoopSpec& spec);

}  // namespace structure::pipeline
