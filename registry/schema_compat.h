// Whether a new version of a schema is a compatible minor step: a minor version may
// add optional properties and relax constraints; adding a required property, removing a
// property, narrowing a type or tightening a bound is a breaking change, which needs a new name.
#pragma once

#include <string>
#include <vector>

#include "base/json.h"

namespace structure::registry {

// The breaking changes from `before` to `after`, one line each, in a stable order (schema
// location first, as a JSON pointer into the schema; "(root)" for the schema itself), e.g.
//   /properties/priority: maximum lowered from 5 to 3
//   (root): property "email" is now required
// Empty when `after` is a compatible minor step. Compared keywords: type, required, properties,
// additionalProperties, items, prefixItems, $defs/definitions (by name), enum, const, pattern,
// format, uniqueItems and the numeric, length, item and property-count bounds. Changes inside
// anyOf/oneOf/allOf/not/if and across different $ref targets are not judged (they pass).
std::vector<std::string> BreakingChanges(const Json& before, const Json& after);

}  // namespace structure::registry
