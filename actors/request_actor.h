// The per-request actor: one per structure call. Runs the schema stage (inline, registry or
// builder through the cache), then the content loop against the provider pool, and reports
// exactly one result through the callback — also when it is stopped early.
#pragma once

#include <functional>
#include <memory>

#include <caf/all.hpp>

#include "actors/engine_context.h"
#include "pipeline/content_loop.h"
#include "pipeline/request.h"
#include "pipeline/result.h"

namespace structure::actors {

using ResultCallback = std::function<void(pipeline::StructureResult)>;

void SpawnRequest(caf::actor_system& system, std::shared_ptr<const EngineContext> ctx,
                  pipeline::StructureRequest request, ResultCallback done,
                  pipeline::SemanticCheck check);

}  // namespace structure::actors
