#include "engine_handle.h"

#include <mutex>
#include <utility>

namespace structure_py {

using structure::Status;

structure::Result<std::unique_ptr<EngineHandle>> EngineHandle::Create(
    structure::EngineOptions options) {
  std::unique_ptr<EngineHandle> handle(new EngineHandle(std::move(options)));
  auto engine = structure::Engine::Create(handle->options_);
  if (!engine.ok()) return engine.status();
  handle->engine_ = std::move(*engine);
  return handle;
}

Status EngineHandle::Submit(structure::StructureRequest request, std::shared_ptr<Completions> sink,
                            uint64_t token, structure::Json identity) {
  std::shared_lock<std::shared_mutex> lock(mu_);
  if (!engine_) return restart_;
  engine_->Submit(std::move(request),
                  [sink = std::move(sink), token,
                   identity = std::move(identity)](structure::StructureResult r) mutable {
                    sink->Push(Completion{token, std::move(identity), std::move(r)});
                  });
  return Status::Ok();
}

void EngineHandle::Cancel() {
  std::unique_ptr<structure::Engine> old;
  {
    std::unique_lock<std::shared_mutex> lock(mu_);
    old = std::move(engine_);
    auto fresh = structure::Engine::Create(options_);
    if (fresh.ok()) {
      engine_ = std::move(*fresh);
    } else {
      restart_ = fresh.status();
    }
  }
  old.reset();  // answers every call under way "cancelled", then stops its threads
}

Status EngineHandle::CheckModel(const std::string& model, const std::string& tenant,
                                const std::string& project) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  if (!engine_) return restart_;
  return engine_->CheckModel(model, tenant, project);
}

structure::Result<std::vector<structure::SchemaInfo>> EngineHandle::ListSchemas(
    const std::string& tenant, const std::string& project) const {
  std::shared_lock<std::shared_mutex> lock(mu_);
  if (!engine_) return restart_;
  return engine_->ListSchemas(tenant, project);
}

}  // namespace structure_py
