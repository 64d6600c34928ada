// Internal: the last compile step. Turns the keyword lists of every node into per-instance-class
// plans (only the keywords that can act on an instance of that class, so a string never looks
// at `minimum`, and `type` is dropped where it always passes), lets instance-consuming edges
// skip `$ref`-only nodes, and fuses `required` into a neighbouring `properties`.
#pragma once

#include "pipeline/validator/schema.h"

namespace structure::pipeline::validator_internal {

// Error output is unchanged by planning: skipped `$ref`-only nodes never report errors of their
// own (their target is not `false` and they share the parent's resource, so the dynamic scope
// is the same), and a fused `required` still reports through its own keyword, in its place.
void PlanSchema(CompiledSchema* schema);

}  // namespace structure::pipeline::validator_internal
