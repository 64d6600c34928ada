// `--check "CMD ARGS"` and `--check-timeout-ms N` of `structure run` and `structure batch`: a
// semantic check command for every call (actors/check_runner.h says what it gets and prints).
#pragma once

#include <vector>

#include "apps/structure/args.h"
#include "engine/engine.h"

namespace structure::apps {

void AddCheckFlags(std::vector<FlagSpec>& spec);

// Sets options.checks[""] from the flags. kInvalidArgument names the flag: an empty command, a
// timeout that is not a whole number 1..3600000, or a timeout without --check.
Status ApplyCheckFlags(const Args& args, EngineOptions& options);

}  // namespace structure::apps
