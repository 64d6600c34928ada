// EngineHandle: one structure::Engine shared by every Python thread, that Ctrl-C can cancel.
// Cancelling destroys the engine (which answers every call under way "cancelled", as `structure
// run` does on Ctrl-C) and starts a new one from the same options, so the Python object stays
// usable. Submit holds a shared lock for the instant it takes; Cancel an exclusive one.
#pragma once

#include <cstdint>
#include <memory>
#include <shared_mutex>
#include <string>

#include "completions.h"
#include "structure/engine.h"

namespace structure_py {

class EngineHandle {
 public:
  static structure::Result<std::unique_ptr<EngineHandle>> Create(structure::EngineOptions options);

  // Starts `request`; its result goes to `sink` under `token`. Not ok only when the engine could
  // not be started again after a Cancel.
  structure::Status Submit(structure::StructureRequest request, std::shared_ptr<Completions> sink,
                           uint64_t token, structure::Json identity);

  // Ends every call under way (their results say "cancelled") and starts a fresh engine.
  // Waits for the old engine to stop: call it without the GIL.
  void Cancel();

  structure::Status CheckModel(const std::string& model, const std::string& tenant,
                               const std::string& project) const;

  structure::Result<std::vector<structure::SchemaInfo>> ListSchemas(
      const std::string& tenant, const std::string& project) const;

 private:
  explicit EngineHandle(structure::EngineOptions options) : options_(std::move(options)) {}

  structure::EngineOptions options_;
  mutable std::shared_mutex mu_;
  std::unique_ptr<structure::Engine> engine_;
  structure::Status restart_;  // why the engine could not be started again
};

}  // namespace structure_py
