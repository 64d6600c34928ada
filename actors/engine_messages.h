// CAF message types of the engine's own actors (request host, builder cache), in a type-ID block
// that follows the pool's block.
#pragma once

#include <string>

#include "actors/messages.h"
#include "actors/provider_pool.h"
#include "pipeline/loop/content_loop.h"
#include "pipeline/result.h"
#include "pipeline/schema_builder.h"

namespace structure::actors {

// A schema-builder call for the cache: single-flighted by `key`.
struct BuildJob {
  std::string key;          // DescriptionKey of the normalized text
  std::string normalized;   // the normalized description (compared on hits)
  pipeline::LoopSpec spec;  // the builder loop, ready to run
  ProviderPoolActor pool;
  Lane lane = Lane::kInteractive;
  std::chrono::steady_clock::time_point deadline;  // the requesting call's (LoopRun::deadline)
  int64_t timeout_ms = 0;                          // its callTimeoutMs; 0 = none
};

struct BuildOutcome {
  pipeline::CallResult loop;  // the builder loop's result; kOk data = the builder output
  bool cache_hit = false;     // true: no LLM call was made for this caller
};

}  // namespace structure::actors

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(structure::actors::BuildJob)
CAF_ALLOW_UNSAFE_MESSAGE_TYPE(structure::actors::BuildOutcome)

CAF_BEGIN_TYPE_ID_BLOCK(structure_engine, caf::id_block::structure::end)
CAF_ADD_ATOM(structure_engine, structure::actors, build_atom, "build")
CAF_ADD_ATOM(structure_engine, structure::actors, built_atom, "built")
CAF_ADD_ATOM(structure_engine, structure::actors, flush_atom, "flush")
CAF_ADD_ATOM(structure_engine, structure::actors, found_atom, "found")
CAF_END_TYPE_ID_BLOCK(structure_engine)
