// The leaves of an answer that evidence is asked for: every string, number and boolean, with
// its JSON pointer ("/lineItems/0/amount") and the kind of check its schema calls for. Nulls and
// empty strings state nothing, so they are not leaves.
#pragma once

#include <string>
#include <vector>

#include "base/json.h"
#include "pipeline/evidence/value_match.h"

namespace structure::pipeline::evidence {

struct Leaf {
  std::string pointer;  // RFC 6901, "" for a scalar root
  const Json* value;    // points into the data passed to CollectLeaves
  LeafKind kind;
};

// The leaves of `data` in document order. `schema` (the ORIGINAL schema; local $ref, allOf,
// anyOf, oneOf, if/then/else, properties, additionalProperties, prefixItems and items are
// followed) decides the kind: enum or const → classification; format date, date-time or time →
// date-time. A string in ISO 8601 date form is a date-time whatever its schema.
std::vector<Leaf> CollectLeaves(const Json& data, const Json& schema);

}  // namespace structure::pipeline::evidence
