#include "pipeline/split_stage.h"

#include "pipeline/evidence/form.h"
#include "pipeline/loop/split_loop.h"

namespace structure::pipeline {
namespace {

// A call of the split on `part_schema`: compiled, lowered (the part's own lowering when the
// provider is asked for the schema itself), its need field scoped to its fields.
Result<std::shared_ptr<const LoopPlan>> SubPlan(const ResolvedSchema& whole, const Profile& profile,
                                                const PlanOptions& options, const Json& part_schema,
                                                const Lowered* lowered,
                                                const std::vector<std::string>& pointers,
                                                const std::string& cache_suffix) {
  auto resolved = ResolveSchema(part_schema, whole.origin, whole.manual, whole.version,
                                options.allow_unresolved_refs);
  if (!resolved.ok())
    return InvalidArgument("a part does not compile: " + resolved.status().message());
  resolved->name = whole.name;
  bool evidence = options.evidence != config::EvidenceMode::kOff;
  Json asked = evidence ? evidence::EvidenceFormSchema(part_schema) : part_schema;
  Lowered low;
  if (lowered && !evidence) {
    low = *lowered;
  } else {
    auto l = Lower(asked, profile);
    if (!l.ok()) return InvalidArgument("a part does not lower: " + l.status().message());
    low = std::move(*l);
    ScopeNeed(low, profile, pointers);
  }
  std::shared_ptr<LoopPlan> plan =
      MakeLoopPlanFrom(*resolved, profile, options, asked, std::move(low));
  // The parts' prefixes differ: each has its own cache key (at most 64 characters).
  std::string key = PromptCacheKey(whole);
  plan->cache_key = key.substr(0, 64 - cache_suffix.size()) + cache_suffix;
  return std::shared_ptr<const LoopPlan>(std::move(plan));
}

}  // namespace

Result<std::shared_ptr<LoopPlan>> MakeSplitLoopPlan(const ResolvedSchema& schema,
                                                    const Profile& profile,
                                                    const PlanOptions& options, SplitPlan split) {
  auto runs = std::make_shared<SplitLoopPlan>();
  for (size_t i = 0; i < split.parts.size(); ++i) {
    const SplitPart& part = split.parts[i];
    auto plan = SubPlan(schema, profile, options, part.schema, &part.lowered, part.pointers,
                        "#p" + std::to_string(i + 1));
    if (!plan.ok()) return plan.status();
    runs->parts.push_back(std::move(*plan));
  }
  for (size_t i = 0; i < split.cross.size(); ++i) {
    const CrossConstraint& c = split.cross[i];
    auto plan = SubPlan(schema, profile, options, c.schema, nullptr, c.constraint.pointers,
                        "#c" + std::to_string(i + 1));
    if (!plan.ok()) return plan.status();
    runs->cross.push_back(std::move(*plan));
  }
  auto whole = std::make_shared<LoopPlan>();
  whole->manual = schema.manual;
  whole->validator = schema.validator;
  whole->evidence = options.evidence;
  whole->original_schema = schema.schema;
  whole->cache_key = PromptCacheKey(schema);
  whole->prompt_cache = profile.prompt_cache;
  whole->strict = true;
  whole->mode_reason = split.forced_by.text;
  runs->plan = std::move(split);
  whole->split = std::move(runs);
  return whole;
}

}  // namespace structure::pipeline
