// Internals of the instance generator shared by its .cc files.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "base/json.h"
#include "pipeline/generate/generate.h"
#include "structure/status.h"

namespace structure::pipeline::detail {

// A string valid for `format` with length in [min_len, max_len], or nullopt when the format is
// unknown or its samples do not fit.
std::optional<std::string> SampleFormat(std::string_view format, std::mt19937_64& rng,
                                        size_t min_len, size_t max_len);

// A random string for a schema with type string (pattern, format, lengths).
Result<Json> GenerateString(const Json& schema, std::mt19937_64& rng, const GenerateOptions& opt);

// A random number for a schema with type integer (integer = true) or number.
Result<Json> GenerateNumber(const Json& schema, bool integer, std::mt19937_64& rng);

}  // namespace structure::pipeline::detail
