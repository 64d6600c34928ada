#include "pipeline/schema_stage.h"

#include "base/hash.h"
#include "base/hex.h"
#include "config/settings.h"
#include "pipeline/evidence/form.h"
#include "pipeline/lowering/lift.h"
#include "pipeline/lowering/lower.h"
#include "pipeline/lowering/measure.h"
#include "pipeline/lowering/need_channel.h"
#include "pipeline/lowering/split_plan.h"
#include "pipeline/split_stage.h"

namespace structure::pipeline {

const char kStrictOutputNotRequired[] =
    "requireProviderStrictOutput is false: the schema goes in the prompt and the answer is "
    "validated locally";

Result<std::shared_ptr<const Validator>> CheckSchema(const Json& schema,
                                                     const ValidatorOptions& options) {
  auto compiled = CompileSchema(schema, options);
  if (compiled.ok()) return compiled;
  const std::string& why = compiled.status().message();
  return InvalidArgument(why.rfind("schema ", 0) == 0 ? why : "schema: " + why);
}

Result<ResolvedSchema> ResolveSchema(Json schema, std::string origin, std::string manual,
                                     std::string version, bool allow_unresolved_refs) {
  ValidatorOptions options;
  options.allow_unresolved_refs = allow_unresolved_refs;
  auto compiled = CheckSchema(schema, options);
  if (!compiled.ok()) return compiled.status();
  ResolvedSchema r;
  r.schema = std::move(schema);
  r.validator = std::move(*compiled);
  r.manual = std::move(manual);
  r.origin = std::move(origin);
  r.version = std::move(version);
  return r;
}

std::string PromptCacheKey(const ResolvedSchema& schema) {
  constexpr size_t kMax = 64;
  std::string text = ToJson(schema.schema);
  if (schema.name.empty()) return schema.origin.substr(0, 40) + ":" + Hex64(Fnv1a64(text));
  std::string key = schema.name + "@" + schema.version;
  if (key.size() <= kMax) return key;
  return key.substr(0, kMax - 17) + "~" + Hex64(Fnv1a64(key));
}

Result<std::shared_ptr<LoopPlan>> MakeLoopPlan(const ResolvedSchema& schema, const Profile& profile,
                                               const PlanOptions& options) {
  // With evidence on, what the provider is asked for is the evidence form around the schema;
  // the validator stays the user's schema (the answer is split out before validation).
  Json form_schema;
  if (options.evidence != config::EvidenceMode::kOff)
    form_schema = evidence::EvidenceFormSchema(schema.schema);
  const Json& asked = options.evidence != config::EvidenceMode::kOff ? form_schema : schema.schema;
  auto lowered = Lower(asked, profile);
  if (!lowered.ok()) return InvalidArgument("schema: " + lowered.status().message());
  Lowered low = std::move(*lowered);
  // Past the profile's limits (or max_fields_per_call): strict parts, when a split exists.
  bool may_split =
      options.require_provider_strict_output && !options.final_tool && !options.array_mode;
  if (std::optional<LimitHit> hit = may_split ? SplitTrigger(low, profile) : std::nullopt) {
    SplitPlan split = PlanSplit(schema.schema, profile, *hit);
    std::string failure = split.failure;
    if (!split.parts.empty()) {
      auto made = MakeSplitLoopPlan(schema, profile, options, std::move(split));
      if (made.ok()) return made;
      failure = made.status().message();
    }
    if (!low.strict) low.reason += "; no split into strict parts: " + failure;
  }
  return MakeLoopPlanFrom(schema, profile, options, asked, std::move(low));
}

std::shared_ptr<LoopPlan> MakeLoopPlanFrom(const ResolvedSchema& schema, const Profile& profile,
                                           const PlanOptions& options, const Json& asked,
                                           Lowered low) {
  auto plan = std::make_shared<LoopPlan>();
  plan->manual = schema.manual;
  plan->validator = schema.validator;
  plan->evidence = options.evidence;
  if (options.evidence != config::EvidenceMode::kOff) plan->answer_schema = schema.schema;
  plan->original_schema = asked;
  plan->final_tool = options.final_tool;
  plan->array_mode = options.array_mode;
  plan->cache_key = PromptCacheKey(schema);
  plan->prompt_cache = profile.prompt_cache;
  plan->cache_min_tokens = static_cast<int64_t>(profile.cache_min_tokens);
  if (!options.require_provider_strict_output && low.strict) {
    // The model cannot do strict output: ask in plain JSON mode, validate locally, and say why.
    low.strict = false;
    low.reason =
        options.plain_reason.empty() ? std::string(kStrictOutputNotRequired) : options.plain_reason;
    low.provider_schema = asked;
    low.lift_plan = LiftPlan{};
    low.need = MakeNeedForm(asked, NeedKind::kPromptOnly);
  }
  plan->mode_reason = low.reason;
  plan->strict = low.strict;
  plan->schema_in_prompt = low.strict && profile.schema_in_prompt;
  NeedForm form = low.need;
  if (options.final_tool) {
    // Final-tool mode: the answer tool takes the lowered schema itself; the need channel is the
    // second tool, which every tool-calling provider accepts.
    plan->provider_schema = low.provider_schema;
    // The need object is closed only where the profile takes additionalProperties.
    form = MakeNeedForm(low.provider_schema, NeedKind::kSecondTool,
                        profile.keywords.count("additionalProperties") > 0);
  } else {
    plan->provider_schema = low.strict ? form.schema : asked;
  }
  if (low.strict) plan->grammar_size = MeasureSchema(form.schema).grammar;
  switch (form.kind) {
    case NeedKind::kSecondTool:
      plan->need = providers::NeedChannel::kTool;
      if (const Json* name = form.tool.find("name")) plan->need_tool_name = name->as_string();
      if (const Json* input = form.tool.find("input_schema")) plan->need_schema = *input;
      break;
    case NeedKind::kEnvelope:
      plan->need = providers::NeedChannel::kEnvelope;
      plan->need_envelope = true;
      plan->envelope_key = form.envelope_key;
      break;
    case NeedKind::kRootAnyOf:
      plan->need = providers::NeedChannel::kEnvelope;
      break;
    case NeedKind::kPromptOnly:
      plan->need = providers::NeedChannel::kNone;
      break;
  }
  // The closures keep only what they read: the form's kind (its schemas are in the plan
  // already) and the lift plan.
  NeedForm slim;
  slim.kind = form.kind;
  slim.envelope_key = form.envelope_key;
  plan->detect_need = [slim](const Json& out) { return DetectNeed(out, slim); };
  LiftPlan lift = std::move(low.lift_plan);
  bool identity = lift.envelope_key.empty() && (lift.root < 0 || !lift.nodes);
  plan->lift = [slim, lift, identity](Json& out) -> Result<Json> {
    if (slim.kind == NeedKind::kEnvelope) {
      // By the form asked for: the envelope's member is named so that no property at the root
      // of the schema has its name, so a bare answer is never unwrapped (kNotFound: judged as
      // it is, formIgnored).
      Json* target = IsEnvelope(out, slim.envelope_key) ? out.find(slim.envelope_key) : nullptr;
      if (target == nullptr || target->is_null()) return UnwrapNeed(out, slim).status();
      Json inner = std::move(*target);
      out = std::move(inner);
    }
    if (identity) return std::move(out);
    return Lift(out, lift);
  };
  return plan;
}

PlanOptions PlanOptionsFor(const StructureRequest& request, const config::Settings& settings) {
  PlanOptions o;
  o.require_provider_strict_output = settings.require_provider_strict_output;
  if (!o.require_provider_strict_output) o.plain_reason = kStrictOutputNotRequired;
  o.final_tool = request.final_tool;
  o.array_mode = request.array_mode;
  o.evidence = settings.evidence;
  o.allow_unresolved_refs = settings.allow_unresolved_refs;
  return o;
}

std::string PlanOptionsKey(const PlanOptions& options) {
  // Binds every field by name: one more field is a compile error here (too few names).
  const auto& [strict, final_tool, array_mode, evidence, any_ref, plain_reason] = options;
  std::string key = strict ? "strict" : "plain";
  if (final_tool) key += " tool";
  if (array_mode) key += " array";
  if (any_ref) key += " any-ref";
  key += " evidence=";
  key += config::EvidenceModeName(evidence);
  if (!plain_reason.empty()) key += " because=" + plain_reason;
  return key;
}

LoopSpec MakeLoopSpec(std::shared_ptr<const LoopPlan> plan, std::string prompt,
                      const config::Settings& settings, const std::string& model) {
  LoopSpec spec;
  spec.plan = std::move(plan);
  spec.prompt = std::move(prompt);
  spec.model = model;
  spec.max_loops = settings.max_loops;
  spec.token_budget = settings.token_budget;
  return spec;
}

void TakeConversation(StructureRequest& request, LoopSpec& spec) {
  spec.turns.reserve(request.turns.size());
  for (ConversationTurn& t : request.turns) {
    providers::Turn turn = providers::UserTurn(std::move(t.text));
    if (t.role == TurnRole::kAssistant) turn.role = providers::Role::kAssistant;
    spec.turns.push_back(std::move(turn));
  }
  spec.instructions = std::move(request.instructions);
  spec.params = request.params;
  if (request.params.max_tokens) spec.max_tokens = *request.params.max_tokens;
  if (!request.params.reasoning_effort.empty()) {
    spec.thinking.effort = request.params.reasoning_effort;
  }
}

Result<LoopSpec> MakeContentSpec(const StructureRequest& request, const ResolvedSchema& schema,
                                 const Profile& profile, const config::Settings& settings,
                                 const std::string& model) {
  auto plan = MakeLoopPlan(schema, profile, PlanOptionsFor(request, settings));
  if (!plan.ok()) return plan.status();
  return MakeLoopSpec(std::move(*plan), request.prompt, settings, model);
}

}  // namespace structure::pipeline
