// Runs the content loops of a long input's parts (pipeline/input/plan.h) from inside an actor:
// every part's loop starts at once, and the provider pool sends them under its limits (the
// interactive and bulk lanes, rate limits and concurrency as for any call); `done` runs once,
// in the actor, with their results in document order.
#pragma once

#include <functional>
#include <memory>
#include <vector>

#include <caf/all.hpp>

#include "actors/loop_driver.h"
#include "pipeline/result.h"

namespace structure::actors {

using PartsDone = std::function<void(std::vector<pipeline::CallResult>)>;

// Starts `runs` (each with its spec, pool, lane and deadline set; their on_finish is set
// here). `self` and `waits` must outlive them.
void RunInputParts(caf::event_based_actor* self, LoopWaits& waits,
                   std::vector<std::shared_ptr<LoopRun>> runs, PartsDone done);

}  // namespace structure::actors
