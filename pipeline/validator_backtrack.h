// A small backtracking matcher for the ECMA-262 patterns RE2 cannot run (look-ahead,
// look-behind, back references, large counted repetition). Every search has an explicit step
// budget and uses no recursion on the subject, so a hostile pattern costs bounded time.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>

#include "base/status.h"
#include "pipeline/validator_regex.h"

namespace structure::pipeline {

// Parses pattern (ECMA-262, unicode mode). kInvalidArgument for syntax it does not support.
Result<EcmaRegex::BacktrackerPtr> CompileBacktracker(std::string_view pattern);

// Unanchored search. Returns false and sets *step_limit_hit when max_steps run out.
bool BacktrackSearch(const EcmaRegex::Backtracker& program, std::string_view subject,
                     uint64_t max_steps, bool* step_limit_hit);

}  // namespace structure::pipeline
