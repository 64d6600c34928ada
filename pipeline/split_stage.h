// The schema stage of a split: the loop plan of a schema asked as strict parts
// (pipeline/loop/split_loop.h), built once per schema and target like any plan.
#pragma once

#include <memory>

#include "pipeline/loop/content_loop.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/lowering/split_plan.h"
#include "pipeline/schema_stage.h"
#include "structure/status.h"

namespace structure::pipeline {

// The plan of the ORIGINAL schema (its validator, manual and cache key; mode "split") whose
// `split` holds a loop plan per part and per constraint that spans parts. Each part's schema
// is compiled as a schema of its own; kInvalidArgument when one does not compile (the caller
// then asks the schema whole).
Result<std::shared_ptr<LoopPlan>> MakeSplitLoopPlan(const ResolvedSchema& schema,
                                                    const Profile& profile,
                                                    const PlanOptions& options, SplitPlan split);

}  // namespace structure::pipeline
