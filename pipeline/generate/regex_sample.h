// Samples a string that matches an ECMA-262 style regular expression (the `pattern` keyword).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "structure/status.h"

namespace structure::pipeline {

// Returns a string s with min_length <= |s| (code points) <= max_length such that the pattern
// matches somewhere in s (JSON Schema `pattern` semantics: unanchored unless the pattern says
// otherwise). Deterministic for a given seed. Supports literals, escapes (\d \w \s and their
// negations, \xHH, \uHHHH), classes, groups, alternation, anchors and all quantifiers.
// kInvalidArgument for lookaround, back references, syntax errors, or when no sample within the
// length bounds was found after a bounded number of attempts.
Result<std::string> SampleRegexMatch(std::string_view pattern, uint64_t seed, size_t min_length = 0,
                                     size_t max_length = 64);

// True when `pattern` is in the "simple" regex subset: no lookaround, no back references, no
// \b/\B, and no counted repetition above max_count. Used by profiles whose providers only take
// simple patterns.
bool IsSimpleRegex(std::string_view pattern, size_t max_count);

// Number of Unicode code points in a UTF-8 string (invalid bytes count as one each).
size_t CodePointCount(std::string_view s);

}  // namespace structure::pipeline
