// Lowering: rewrites a JSON Schema into the form a provider's strict mode accepts (Lower), and
// maps the provider's output back to the original shape (Lift, in lift.h). Every constraint the
// provider cannot take is reported in `dropped` and stays enforced by local validation of the
// ORIGINAL schema, which always has the last word.
#pragma once

#include <string>
#include <vector>

#include "base/json.h"
#include "pipeline/lowering/lift_plan.h"
#include "pipeline/lowering/measure.h"
#include "pipeline/lowering/need_channel.h"
#include "pipeline/lowering/profile.h"
#include "structure/status.h"

namespace structure::pipeline {

// An annotation: a subschema that holds it (set to true) travels as JSON text in a string,
// decoded by Lift and validated locally. The split plan sets it on a field too big for any
// one call that cannot be split further.
inline constexpr char kJsonTextKeyword[] = "x-structure-json-text";

// A constraint moved out of the provider schema: where it was in the original schema (a JSON
// pointer), which keyword, and its value.
struct Dropped {
  std::string path;
  std::string keyword;
  Json value;
};

struct Lowered {
  bool strict = false;   // false: fallback (no provider enforcement, local validation only)
  Json provider_schema;  // strict: the lowered schema; fallback: the original (for the prompt)
  LiftPlan lift_plan;    // identity for fallback
  std::vector<Dropped> dropped;
  std::string reason;  // why fallback; empty when strict
  LimitHit exceeded;   // fallback because of a size limit: which one (kNone otherwise)
  NeedForm need;       // the need channel in the form this profile takes
};

// Lowers `schema` for `profile`. Never fails on a valid schema: what cannot be lowered soundly
// becomes a fallback with its reason. kInvalidArgument only when the input is not a schema
// (not an object/boolean, or a keyword with a value of the wrong type), naming the location.
Result<Lowered> Lower(const Json& schema, const Profile& profile);

// Checks that `schema` is structurally a JSON Schema (keyword value types, recursively).
Status CheckIsSchema(const Json& schema);

}  // namespace structure::pipeline
