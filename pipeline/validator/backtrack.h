// A small backtracking matcher for the ECMA-262 patterns RE2 cannot run (look-ahead,
// look-behind, back references, large counted repetition). Every search has an explicit step
// budget and uses no recursion on the subject, so a hostile pattern costs bounded time.
// Programs come from CompileBacktracker (validator_backtrack_parse.h).
#pragma once

#include <cstdint>
#include <string_view>

#include "pipeline/validator/regex.h"

namespace structure::pipeline {

// Unanchored search. Returns false and sets *step_limit_hit when max_steps run out.
bool BacktrackSearch(const EcmaRegex::Backtracker& program, std::string_view subject,
                     uint64_t max_steps, bool* step_limit_hit);

}  // namespace structure::pipeline
