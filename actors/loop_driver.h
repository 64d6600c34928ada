// Drives a content loop (pipeline::Step) against a provider pool from inside an actor: sends
// each SendCall as a PoolRequest and feeds the reply back into OnReply until a Finish. An
// exception in a step (a bug, or memory exhausted) finishes the loop with an internal error.
#pragma once

#include <functional>
#include <memory>

#include <caf/all.hpp>

#include "actors/messages.h"
#include "actors/provider_pool.h"
#include "pipeline/content_loop.h"

namespace structure::actors {

struct LoopRun {
  pipeline::LoopSpec spec;
  pipeline::LoopState state;
  ProviderPoolActor pool;
  Lane lane = Lane::kInteractive;
  std::chrono::milliseconds timeout{0};  // per provider call, queueing and retries included
  std::function<void(pipeline::StructureResult)> on_finish;  // runs once, in the actor
  bool finished = false;                                     // on_finish has run
};

// Starts the loop. `self` must outlive the run (the run's callbacks capture it).
void StartLoop(caf::event_based_actor* self, std::shared_ptr<LoopRun> run);

}  // namespace structure::actors
