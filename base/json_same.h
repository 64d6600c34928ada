// Whether two Json values have the same text, decided without writing it.
#pragma once

#include "structure/json.h"

namespace structure {

// ToJson(a) == ToJson(b), decided without writing either: same types in the same places, same
// numbers, strings and member order. A cache keyed by a value's text can check a value it
// already holds against a new one at a fraction of the cost of writing it.
bool SameJsonText(const Json& a, const Json& b);

}  // namespace structure
