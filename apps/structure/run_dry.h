// `structure run --dry-run`: the plan of a call without a call: the schema stage (the schema
// compiled and lowered for the provider and model), then the input split decision the engine
// would make (pipeline/input/plan.h), printed as JSON.
#pragma once

#include "structure/engine.h"
#include "structure/request.h"

namespace structure::apps {

// Prints {"status": "plan", "provider", "model", "mode", "input": InputPlanToJson(...)} and
// returns 0, or prints the result that ended the schema stage (an unknown schema, ...) and
// returns its exit code.
int PrintRunPlan(Engine& engine, StructureRequest request);

}  // namespace structure::apps
