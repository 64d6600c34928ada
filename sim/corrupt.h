// Constraint violations for the "invalid" fault: take a schema-valid instance and break exactly
// one constraint the schema states (a bound, an enum, a length, a required property, a type),
// the way a model drifts from a schema it was only told about.
#pragma once

#include <string>

#include "base/json.h"
#include "sim/rng.h"

namespace structure::sim {

// Modifies `instance` (valid against `schema`) so that one constraint fails. Returns a short
// description such as "/priority: 6 exceeds maximum 5", or "" when nothing could be broken
// (then instance is unchanged).
std::string Corrupt(const Json& schema, Json& instance, Rng& rng);

}  // namespace structure::sim
