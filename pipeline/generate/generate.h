// The instance generator: a random JSON value valid against a JSON Schema, for round-trip tests
// and the simulator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "base/json.h"
#include "structure/status.h"

namespace structure::pipeline {

// The note the lowering (pipeline/lowering) puts in the description of a string that stands for
// any JSON value, written as JSON text (a schema with no type, under a provider's strict mode).
// The generator writes such a string as JSON text, as a model that reads the note does.
inline constexpr std::string_view kJsonTextNote =
    "(Any JSON value, written as a JSON text in this string.)";

struct GenerateOptions {
  size_t max_depth = 6;               // beyond this only required properties and minimal arrays
  size_t max_array_items = 4;         // soft cap when maxItems is absent or larger
  size_t max_string_length = 16;      // soft cap for strings without maxLength
  double optional_probability = 0.5;  // chance that an optional property is emitted
  // Emit undeclared properties in objects that allow them. Off by default: the usual intent of
  // an implicitly open object is its declared properties.
  bool extra_properties = false;
  size_t max_nodes = 20000;  // total values generated; more is an error, never a hang
};

// A random instance valid against `schema` (deterministic for a given seed). Handles type, enum,
// const, properties/required/additionalProperties/patternProperties, items/prefixItems (and the
// draft-04 tuple form), min/max ranges and lengths, multipleOf, pattern (a sampled matching
// string), common formats, local $ref/$defs/definitions, and allOf/anyOf/oneOf best effort
// (not, if/then/else and oneOf exclusivity are ignored). kInvalidArgument when it cannot
// produce one (an unsatisfiable or unsupported schema, an unresolvable $ref, too deep).
Result<Json> GenerateInstance(const Json& schema, uint64_t seed,
                              const GenerateOptions& options = {});

}  // namespace structure::pipeline
