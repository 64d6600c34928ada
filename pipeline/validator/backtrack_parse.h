// Internal: the parser of the backtracking regex engine: ECMA-262 (unicode mode) pattern text
// to the program its matcher runs (validator_backtrack.h).
#pragma once

#include <string_view>

#include "pipeline/validator/regex.h"
#include "structure/status.h"

namespace structure::pipeline {

// Parses pattern (ECMA-262, unicode mode). kInvalidArgument for syntax it does not support.
Result<EcmaRegex::BacktrackerPtr> CompileBacktracker(std::string_view pattern);

}  // namespace structure::pipeline
