// structure::Engine: the library API. Configured from TOML or code; submit requests
// asynchronously (callback or future) or block. Every request gets exactly one result, never an
// exception. No CAF in this header: the actor system lives behind the pimpl.
#pragma once

#include <functional>
#include <future>
#include <map>
#include <memory>
#include <string>

#include "actors/check_runner.h"
#include "base/status.h"
#include "config/engine_config.h"
#include "config/load_config.h"
#include "pipeline/call_stats.h"
#include "pipeline/content_loop.h"
#include "pipeline/prepared_call.h"
#include "pipeline/request.h"
#include "pipeline/result.h"
#include "providers/network.h"

namespace structure::registry {
class SchemaRegistry;
}

namespace structure {

struct EngineOptions {
  config::EngineConfig config = config::DefaultConfig();
  std::string provider;      // use this provider for every call ("" = the settings' model)
  std::string base_url;      // replace the provider's base URL (e.g. a local `structure sim`)
  std::string registry_dir;  // bundled schemas, must exist ("" = config, else the installed ones)
  std::string database;      // SQLite file for overrides and caches ("" = config; ":memory:" ok)
  // Stats (and so the server's /metrics) count a tenant's or project's own schemas under
  // "tenant" / "project", never by name (pipeline/call_stats.h). serve sets it.
  bool hide_tenant_schemas = false;
  // Where the engine reports state changes of its own (the shared store lost, back); one line
  // each, no newline. Default: "structure: ..." on stderr.
  std::function<void(const std::string&)> log;
  // Semantic checks outside C++ (actors/check_runner.h), by the request's tenant; the entry ""
  // applies to requests whose tenant has none (`--check` of run and batch). Never taken from a
  // request: the server sets them from its config.
  std::map<std::string, actors::CheckCommand> checks;
};

using ResultCallback = std::function<void(pipeline::StructureResult)>;
using PreparedCallback = std::function<void(pipeline::PreparedCall)>;

class Engine {
 public:
  // Starts the actor system, one provider pool per configured provider, the registry and the
  // builder cache. kInvalidArgument / kNotFound for a bad configuration or registry.
  // `provider` may name a built-in kind that is not configured (config/builtin_providers.h).
  // kUnauthenticated naming the variable when a provider every call uses has no API key.
  static Result<std::unique_ptr<Engine>> Create(EngineOptions options);

  // Every check Create makes of `options` before it starts anything (engine/engine_checks.h:
  // configuration, provider, base URL, profiles, the key variable of each provider every call
  // uses, the schemas directory, the database's folder, the shared store's settings): what
  // `structure config check` reports, so it passes exactly what run/batch/serve/mcp accept.
  static Status Check(const EngineOptions& options);

  // The bundled schemas directory `options` give (--registry-dir, stores.registry_dir, else the
  // installed schemas); "" when there is none.
  static std::string RegistryDir(const EngineOptions& options);

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

  // The schema stage only, for callers that send the content loop's calls themselves (provider
  // batch APIs): exactly one of `ready` (with the loop to drive through pipeline::Start /
  // OnReply and where its calls go) or `done` (the request ended before any content call:
  // bad schema, unknown name, need-more-input from the schema builder) runs, on an engine
  // thread. Schema-builder calls (schemaText) are made live, as in Submit.
  void Prepare(pipeline::StructureRequest request, PreparedCallback ready, ResultCallback done,
               pipeline::SemanticCheck check = {});

  // Blocking convenience.
  pipeline::StructureResult Run(pipeline::StructureRequest request);

  // The schema registry (bundled + tenant/project overrides). Thread-safe.
  registry::SchemaRegistry& schemas();

  const config::EngineConfig& config() const;
  // The proxy, CAs and TLS checks the engine uses for `provider` (defaults when unknown).
  providers::NetworkOptions network(const std::string& provider) const;

  // What a call with this model reference ("" = the settings' model) in this scope would be
  // refused with before it starts (an unknown alias or provider, a provider without its key),
  // as each call checks it: `structure batch` checks its --model once, up front.
  Status CheckModel(const std::string& model_ref, const std::string& tenant = "",
                    const std::string& project = "") const;

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
