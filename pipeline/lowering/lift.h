// Lifting: a provider's output back to the shape of the original schema (and Embed, the inverse,
// used by round-trip tests and by anyone who must show an original instance to the provider).
#pragma once

#include "base/json.h"
#include "pipeline/lowering/lift_plan.h"
#include "structure/status.h"

namespace structure::pipeline {

// Maps provider_output (the target part, after UnwrapNeed) back to the original shape: removes
// the nulls of optional properties, restores maps sent as key/value lists, decodes values sent
// as JSON text, unwraps a root envelope. Values that do not have the expected shape pass through
// unchanged (local validation of the ORIGINAL schema then reports them). kSchemaViolation, with
// the pointer into the original shape, for what cannot be restored: a duplicate map key, a
// malformed map entry, a string that should hold JSON text and does not. kNotFound when the
// output lacks the root envelope (the model ignored the form; the caller may validate the output
// as it is).
Result<Json> Lift(const Json& provider_output, const LiftPlan& plan);

// The inverse of Lift: an instance of the original schema in the provider's shape (absent
// optional properties as null, maps as key/value lists, opaque values as JSON text).
Result<Json> Embed(const Json& instance, const LiftPlan& plan);

// True when value fits the provider schema's structure (types, enum/const, required and closed
// properties, items, anyOf, $ref into defs); string and number bounds are not checked. Used to
// pick the branch of a union.
bool ConformsToShape(const Json& value, const Json& provider_schema, const Json* defs);

}  // namespace structure::pipeline
