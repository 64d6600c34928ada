#include "actors/loop_driver.h"

namespace structure::actors {

namespace {

void Apply(caf::event_based_actor* self, std::shared_ptr<LoopRun> run, pipeline::Step step) {
  if (auto* finish = std::get_if<pipeline::Finish>(&step)) {
    run->on_finish(std::move(finish->result));
    return;
  }
  auto& send = std::get<pipeline::SendCall>(step);
  PoolRequest request{std::move(send.call), run->lane, run->timeout, 0};
  self->request(run->pool, caf::infinite, std::move(request))
      .then(
          [self, run](PoolReply& r) {
            Result<providers::ProviderReply> reply =
                r.status.ok() ? Result<providers::ProviderReply>(std::move(r.reply))
                              : Result<providers::ProviderReply>(r.status);
            Apply(self, run, pipeline::OnReply(run->spec, run->state, reply));
          },
          [self, run](caf::error& e) {
            Status st(Code::kUnavailable, "provider pool failed: " + caf::to_string(e));
            Apply(self, run, pipeline::OnReply(run->spec, run->state, st));
          });
}

}  // namespace

void StartLoop(caf::event_based_actor* self, std::shared_ptr<LoopRun> run) {
  Apply(self, run, pipeline::Start(run->spec, run->state));
}

}  // namespace structure::actors
