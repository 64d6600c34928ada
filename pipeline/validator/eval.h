// Internal: runs a compiled schema over a simdjson element.
#pragma once

#include <simdjson.h>

#include "pipeline/validator/schema.h"
#include "pipeline/validator/validator.h"

namespace structure::pipeline::validator_internal {

// Validates instance against schema.root. all_errors=false stops at the first error. Limits
// (depth, steps) end the run with one error whose keyword is "maxDepth" or "maxSteps".
ValidationResult Evaluate(const CompiledSchema& schema, const simdjson::dom::element& instance,
                          bool all_errors);

}  // namespace structure::pipeline::validator_internal
