// Engine: turns free text into one JSON object valid against a JSON Schema by calling an LLM
// provider, validating the answer locally and asking again with the reasons when it falls
// short.
//
//   structure::EngineOptions options;  // the built-in simulator provider unless configured
//   auto engine = structure::Engine::Create(options);
//   if (!engine.ok()) { /* engine.status().message() says why */ }
//   auto request = structure::ParseRequest(*structure::ParseJson(
//       R"({"prompt": "Mike broke the build", "schema": "user-action-record"})"));
//   structure::StructureResult r = (*engine)->Run(*request);
//
// Thread-safety: every method may be called from any thread at the same time, except that the
// engine must outlive the calls into it and is destroyed once.
#pragma once

#include <functional>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "structure/check.h"
#include "structure/options.h"
#include "structure/request.h"
#include "structure/result.h"
#include "structure/status.h"

namespace structure {

using ResultCallback = std::function<void(StructureResult)>;

// A schema the registry offers a scope.
struct SchemaInfo {
  std::string name;
  std::string version;  // "MAJOR.MINOR"
  std::string origin;   // "registry:bundled" | "registry:tenant:<id>" | "registry:project:<id>"
};

class Engine {
 public:
  // Starts the engine: its threads, one connection pool per configured provider, the schema
  // registry and the schema builder's cache. kInvalidArgument or kNotFound, naming the file,
  // key or flag, for a configuration that cannot work (an alias naming no provider, a bad base
  // URL, an unknown profile, a missing registry directory); kUnauthenticated naming the
  // variable when a provider that every call uses has no API key.
  static Result<std::unique_ptr<Engine>> Create(EngineOptions options);

  // Every check Create makes of `options` before it starts anything: the configuration, the
  // provider and base URL, the profiles, the API key of each provider every call uses, the
  // schemas directory, the database's folder, the shared store's settings, the checks'
  // timeouts. Nothing is started, opened or written.
  static Status Check(const EngineOptions& options);

  // The bundled schemas directory `options` give (registry_dir, the configuration's
  // stores.registry_dir, else the installed schemas); "" when there is none.
  static std::string RegistryDir(const EngineOptions& options);

  // Waits for the engine to stop: requests still waiting on a provider end with
  // ErrorCode::kCancelled, every callback runs, then the threads stop.
  ~Engine();

  Engine(const Engine&) = delete;
  Engine& operator=(const Engine&) = delete;

  // Starts the request and returns at once. `done` runs exactly once with the result, on an
  // engine thread, also when the engine stops first; it must not block for long, and an
  // exception it throws is dropped. `check`, when set, runs on every schema-valid answer
  // (structure/check.h).
  void Submit(StructureRequest request, ResultCallback done, SemanticCheck check = {});

  // Submit, with the result in a future.
  std::future<StructureResult> Submit(StructureRequest request);

  // Submit, waiting for the result. Blocks the calling thread (never call it from `done`).
  StructureResult Run(StructureRequest request);

  // The schemas a request of this tenant and project may name, one per name (the nearest level
  // wins), sorted by name. kInvalidArgument for a malformed tenant or project id.
  Result<std::vector<SchemaInfo>> ListSchemas(const std::string& tenant = "",
                                              const std::string& project = "") const;

  // What a request with this model reference ("" = the settings' model) in this scope would be
  // refused with before its first call (an unknown alias or provider, a provider without its
  // key); Ok when it would start.
  Status CheckModel(const std::string& model_ref, const std::string& tenant = "",
                    const std::string& project = "") const;

 private:
  friend struct EngineInternal;  // engine/engine_internal.h
  struct Impl;
  explicit Engine(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace structure
