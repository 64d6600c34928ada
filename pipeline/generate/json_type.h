// JSON Schema type names of values: what "type" keywords compare against.
#pragma once

#include <string>
#include <string_view>

#include "base/json.h"

namespace structure::pipeline {

// The narrowest type name of a value: "null", "boolean", "integer" (integral numbers, 1.0
// too), "number", "string", "array" or "object".
std::string SchemaTypeOf(const Json& value);

// True when value has JSON Schema type `type` ("number" accepts integers, "integer" accepts
// integral doubles); false for unknown type names.
bool HasSchemaType(const Json& value, std::string_view type);

}  // namespace structure::pipeline
