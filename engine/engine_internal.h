// What the server, batch, MCP, the CLI and the engine's own tests reach beyond the public
// Engine (structure/engine.h): the schema registry, the effective configuration, the metrics,
// and Prepare, which hands the content loop to a caller that sends its calls itself.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "config/engine_config.h"
#include "pipeline/call_stats.h"
#include "pipeline/prepared_call.h"
#include "pipeline/result.h"
#include "providers/transport/network.h"
#include "structure/engine.h"

namespace structure::registry {
class SchemaRegistry;
}

namespace structure {

using PreparedCallback = std::function<void(pipeline::PreparedCall)>;
// A result as the engine's internals carry it, with what the metrics read.
using CallResultCallback = std::function<void(pipeline::CallResult)>;

struct EngineInternal {
  // The schema registry (bundled schemas plus tenant and project overrides). Thread-safe.
  static registry::SchemaRegistry& Schemas(Engine& engine);

  // The configuration the engine runs with, after --provider and --base-url were applied.
  static const config::EngineConfig& Config(const Engine& engine);

  // The database the engine's stores use (--database, else stores.database, else ":memory:"):
  // a SQLite file or a PostgreSQL URL.
  static const std::string& Database(const Engine& engine);

  // Submit, with the result as the engine's internals carry it (the re-ask counts, the
  // provider and the trace as plain data), for callers that report more than the result.
  static void Submit(Engine& engine, StructureRequest request, CallResultCallback done,
                     SemanticCheck check = {});

  // The proxy, CAs and TLS checks the engine uses for `provider` (defaults when unknown).
  static providers::NetworkOptions Network(const Engine& engine, const std::string& provider);

  // The schema stage only, for callers that send the content loop's calls themselves (provider
  // batch APIs): exactly one of `ready` (the loop to drive through pipeline::Start / OnReply and
  // where its calls go) or `done` (the request ended before any content call: bad schema,
  // unknown name, need-more-input from the schema builder) runs, on an engine thread.
  // Schema-builder calls (schemaText) are made live, as in Submit.
  static void Prepare(Engine& engine, StructureRequest request, PreparedCallback ready,
                      CallResultCallback done, SemanticCheck check = {});

  // The metrics of every call finished so far, per schema and per provider (docs/engine.md,
  // "Metrics"); a copy, safe to read while calls go on.
  static pipeline::StatsSnapshot Stats(const Engine& engine);

  // The aggregation itself, shared: it outlives the engine and holds the calls that the
  // engine's shutdown cancelled too (for a final report after the engine is gone).
  static std::shared_ptr<const pipeline::CallStats> CallStats(const Engine& engine);
};

}  // namespace structure
