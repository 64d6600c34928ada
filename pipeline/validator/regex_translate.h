// Internal: translation of ECMA-262 patterns (unicode mode) into RE2 syntax, used by
// EcmaRegex (validator_regex.h).
#pragma once

#include <string>
#include <string_view>

#include "structure/status.h"

namespace structure::pipeline {

// Translates an ECMA-262 pattern (unicode mode) into RE2 syntax: \d \w \s with ECMA meaning,
// `.` excluding line terminators, \uXXXX / \u{X} / surrogate pairs, \p{Letter} long names,
// named groups. Sets *needs_backtracking (and returns "") for look-around and back
// references. kInvalidArgument for syntax errors; strict additionally rejects identity
// escapes of letters (as the `u` flag does).
Result<std::string> TranslateEcmaRegex(std::string_view pattern, bool strict,
                                       bool* needs_backtracking);

}  // namespace structure::pipeline
