// Size measures of a schema as a provider receives it, and the profile limit a schema exceeds.
// One definition shared by Lower (strict or not), the split plan (how to cut), the acceptance
// checker and the simulator (which enforces the same limits and the per-model grammar budget).
#pragma once

#include <cstddef>
#include <string>

#include "base/json.h"
#include "pipeline/lowering/profile.h"

namespace structure::pipeline {

// What a provider counts. `$ref`s are followed for the depth only: each `$defs` entry counts
// once, from the root's `$defs`.
struct SchemaMeasures {
  size_t depth = 0;        // nesting levels of objects/arrays
  size_t properties = 0;   // object properties
  size_t enum_values = 0;  // enum values
  size_t budget = 0;       // characters of property names, def names, string enum/const values
  size_t optional = 0;     // properties not listed in their object's `required`
  size_t unions = 0;       // schemas with anyOf or a type array
  size_t fields = 0;       // leaf properties: properties whose schema declares no properties
  // Grammar size, the measure behind "compiled grammar is too large" / "too many states":
  // schema nodes, plus one per enum value, plus one per optional property.
  size_t grammar = 0;
};

SchemaMeasures MeasureSchema(const Json& wire_schema);

// The limits a profile sets (0 = none), in the order they are reported.
enum class SizeLimit {
  kNone,
  kDepth,
  kProperties,
  kEnumValues,
  kStringBudget,
  kOptional,
  kUnions,
  kGrammar,
  kFields,  // not a provider limit: the opt-in max_fields_per_call
};

// The measure and the profile's bound of one limit.
size_t MeasureOf(const SchemaMeasures& m, SizeLimit limit);
// a + b per measure, with depth the larger of the two; a - b per measure, never below 0, with
// depth kept: what parts of a schema weigh together, or without one of them.
SchemaMeasures Sum(SchemaMeasures a, const SchemaMeasures& b);
SchemaMeasures Difference(SchemaMeasures a, const SchemaMeasures& b);
size_t BoundOf(const Profile& p, SizeLimit limit);

// How a limit reads in messages: "optional property count", "grammar size", ...
const char* SizeLimitName(SizeLimit limit);

struct LimitHit {
  SizeLimit limit = SizeLimit::kNone;
  size_t value = 0;
  size_t bound = 0;
  // "optional property count 31 exceeds the provider limit of 24"; empty for kNone.
  std::string text;
};

// The first limit of `profile` that `m` exceeds (kNone: within every limit).
LimitHit FirstExceeded(const SchemaMeasures& m, const Profile& profile);

}  // namespace structure::pipeline
