// structure::Engine: the library API. Configured from TOML or code; submit requests
// asynchronously (callback or future) or block. Every request gets exactly one result, never an
// exception. No CAF in this header: the actor system lives behind the pimpl.
#pragma once

#include <functional>
#include <future>
#include <memory>
#include <string>

#include "base/status.h"
#include "config/engine_config.h"
#include "config/load_config.h"
#include "pipeline/call_stats.h"
#include "pipeline/content_loop.h"
#include "pipeline/request.h"
#include "pipeline/result.h"

namespace structure::registry {
class SchemaRegistry;
}

namespace structure {

struct EngineOptions {
  config::EngineConfig config = config::DefaultConfig();
  std::string provider;      // use this provider for every call ("" = the settings' model)
  std::string base_url;      // replace the provider's base URL (e.g. a local `structure sim`)
  std::string registry_dir;  // bundled schemas ("" = config, else the installed default)
  std::string database;      // SQLite file for overrides and caches ("" = config; ":memory:" ok)
  int call_timeout_ms = 0;   // per provider call incl. retries; 0 = 10 x the provider timeout
  // Where the engine reports state changes of its own (the shared store lost, back); one line
  // each, no newline. Default: "structure: ..." on stderr.
  std::function<void(const std::string&)> log;
};

using ResultCallback = std::function<void(pipeline::StructureResult)>;

class Engine {
 public:
  // Starts the actor system, one provider pool per configured provider, the registry and the
  // builder cache. kInvalidArgument / kNotFound for a bad configuration or registry.
  static Result<std::unique_ptr<Engine>> Create(EngineOptions options);

  // Finishes nothing new: in-flight calls are answered (cancelled if still waiting on a
  // provider), then the actors stop. Blocks until they have.
  ~Engine();

  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Asynchronous: `done` runs exactly once, on an engine thread; it must not block for long.
  // `check` is an optional semantic check run after schema validation (feeds the reason loop).
  void Submit(pipeline::StructureRequest request, ResultCallback done,
              pipeline::SemanticCheck check = {});
  std::future<pipeline::StructureResult> Submit(pipeline::StructureRequest request);

  // Blocking convenience.
  pipeline::StructureResult Run(pipeline::StructureRequest request);

  // The schema registry (bundled + tenant/project overrides). Thread-safe.
  registry::SchemaRegistry& schemas();

  const config::EngineConfig& config() const;

  // The metrics of every call finished so far, per schema and per provider (docs/engine.md,
  // "Metrics"); a copy, safe to read while calls go on.
  pipeline::StatsSnapshot stats() const;
  // The aggregation itself, shared: it outlives the engine and holds the calls that the engine's
  // shutdown cancelled too (for a final report after the engine is gone).
  std::shared_ptr<const pipeline::CallStats> call_stats() const;

 private:
  struct Impl;
  explicit Engine(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace structure
