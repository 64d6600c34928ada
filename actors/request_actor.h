// The request host: a long-lived actor that runs many structure calls at once. Each call has
// its own state — schema stage (inline, registry or builder through the cache), then the
// content loop against the provider pool — and reports exactly one result through its
// callback, also when the host stops early (then "cancelled"). The engine keeps one host per
// scheduler thread and spreads calls over them.
//
// Why not an actor per call: in CAF 0.17 every actor's exit cancels its timeouts through the
// clock thread (local_actor::cleanup), one lock and wake-up of that thread per call, and every
// spawn schedules a new actor; a host batches its calls' messages in one mailbox instead.
#pragma once

#include <functional>
#include <memory>

#include <caf/all.hpp>

#include "actors/engine_context.h"
#include "pipeline/loop/content_loop.h"
#include "pipeline/prepared_call.h"
#include "pipeline/request.h"
#include "pipeline/result.h"

namespace structure::actors {

using ResultCallback = std::function<void(pipeline::CallResult)>;

// One structure call for a host.
struct RequestJob {
  pipeline::StructureRequest request;
  ResultCallback done;  // runs exactly once, on an engine thread
  pipeline::SemanticCheck check;
  // Set: stop after the schema stage and hand the loop over instead of running it (`done`
  // then runs only when the request ends before any content call).
  std::function<void(pipeline::PreparedCall)> prepared = {};
};

caf::actor SpawnRequestHost(caf::actor_system& system, std::shared_ptr<const EngineContext> ctx);

// Starts a call on `host`; callable from any thread.
void SubmitRequest(const caf::actor& host, RequestJob job);

}  // namespace structure::actors

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(structure::actors::RequestJob)
