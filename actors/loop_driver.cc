#include "actors/loop_driver.h"

#include <exception>

namespace structure::actors {

namespace {

void Guarded(caf::event_based_actor* self, const std::shared_ptr<LoopRun>& run,
             const std::function<pipeline::Step()>& next);

void Finish(const std::shared_ptr<LoopRun>& run, pipeline::StructureResult r) {
  if (run->finished) return;
  run->finished = true;
  run->on_finish(std::move(r));
}

void Apply(caf::event_based_actor* self, std::shared_ptr<LoopRun> run, pipeline::Step step) {
  if (auto* finish = std::get_if<pipeline::Finish>(&step)) return Finish(run, std::move(finish->result));
  auto& send = std::get<pipeline::SendCall>(step);
  PoolRequest request{std::move(send.call), run->lane, run->timeout, 0};
  self->request(run->pool, caf::infinite, std::move(request))
      .then(
          [self, run](PoolReply& r) {
            Result<providers::ProviderReply> reply =
                r.status.ok() ? Result<providers::ProviderReply>(std::move(r.reply))
                              : Result<providers::ProviderReply>(r.status);
            Guarded(self, run, [&] { return pipeline::OnReply(run->spec, run->state, reply); });
          },
          [self, run](caf::error& e) {
            Status st(Code::kUnavailable, "provider pool failed: " + caf::to_string(e));
            Guarded(self, run, [&] { return pipeline::OnReply(run->spec, run->state, st); });
          });
}

// Runs `next` and applies the step it returns.
void Guarded(caf::event_based_actor* self, const std::shared_ptr<LoopRun>& run,
             const std::function<pipeline::Step()>& next) {
  try {
    Apply(self, run, next());
  } catch (const std::exception& e) {
    Finish(run, pipeline::ErrorResult("internal", std::string("unexpected exception: ") + e.what()));
  } catch (...) {
    Finish(run, pipeline::ErrorResult("internal", "unexpected exception"));
  }
}

}  // namespace

void StartLoop(caf::event_based_actor* self, std::shared_ptr<LoopRun> run) {
  Guarded(self, run, [&] { return pipeline::Start(run->spec, run->state); });
}

}  // namespace structure::actors
