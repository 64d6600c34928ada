// Shallow intersection of two JSON Schemas (the allOf merge), shared by lowering and the generator.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/json.h"

namespace structure::pipeline {

// One keyword of a merge input that could not be folded into the merged schema. Lowering keeps
// it for local validation; the generator ignores it.
struct Unmerged {
  std::string keyword;
  Json value;
};

// Returns a schema m whose instances are exactly those valid against both a and b, except for
// the keywords reported in *unmerged (m is then a relaxation). Inputs are schema objects or
// booleans whose top-level $ref the caller has already resolved. Where both sides constrain the
// same subschema (a property, items, ...) the result holds {"allOf":[x, y]} for that subschema,
// to be merged when it is visited. Returns `false` when the types cannot intersect.
Json MergeSchemas(const Json& a, const Json& b, std::vector<Unmerged>* unmerged);

// True for keywords that only annotate (title, description, examples, $comment, ...).
bool IsAnnotationKeyword(std::string_view keyword);

}  // namespace structure::pipeline
