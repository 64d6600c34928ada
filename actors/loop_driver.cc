#include "actors/loop_driver.h"

#include <exception>
#include <vector>

namespace structure::actors {

namespace {

void Guarded(caf::event_based_actor* self, LoopWaits& waits, const std::shared_ptr<LoopRun>& run,
             const std::function<pipeline::Step()>& next);

// Adds a provider call's times to the run's; a bulk call's deadline moves by its waits for a
// turn (the pool did the same for the call itself).
void Note(LoopRun& run, const PoolReply& r) {
  ++run.timing.calls;
  run.timing.attempts += r.attempts;
  run.timing.wire_us += r.wire_total_us;
  run.timing.rate_wait_us += r.rate_wait_us;
  run.timing.backoff_us += r.backoff_us;
  if (run.lane == Lane::kBulk) run.deadline += std::chrono::microseconds(r.rate_wait_us);
}

void Finish(const std::shared_ptr<LoopRun>& run, pipeline::CallResult r) {
  if (run->finished) return;
  run->finished = true;
  run->on_finish(std::move(r));
}

void Apply(caf::event_based_actor* self, LoopWaits& waits, std::shared_ptr<LoopRun> run,
           pipeline::Step step) {
  if (auto* finish = std::get_if<pipeline::Finish>(&step))
    return Finish(run, std::move(finish->result));
  if (auto* check = std::get_if<pipeline::RunCheck>(&step)) {
    if (!run->check || !run->check_runner) {
      return Finish(run, pipeline::ErrorResult(ErrorCode::kInternal,
                                               "an external check with no check runner"));
    }
    uint64_t tag = waits.next_tag++;
    caf::actor me = caf::actor_cast<caf::actor>(self);
    std::shared_ptr<CheckRunner> runner = run->check_runner;
    std::shared_ptr<const CheckCommand> command = run->check;
    std::string prompt = run->spec.prompt;
    waits.runs.emplace(tag, std::move(run));
    runner->Run(*command, ToJson(check->data), std::move(prompt), [me, tag](CheckVerdict v) {
      caf::anon_send(me, CheckDone{tag, std::move(v)});
    });
    return;
  }
  auto& send = std::get<pipeline::SendCall>(step);
  std::chrono::milliseconds left{0};
  if (run->timeout_ms > 0) {
    left = std::chrono::ceil<std::chrono::milliseconds>(run->deadline -
                                                        std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      Status late(Code::kDeadlineExceeded,
                  pipeline::DeadlineMessage(run->timeout_ms, run->timing,
                                            "no time was left for the next provider call"));
      return Guarded(self, waits, run,
                     [&] { return pipeline::OnReply(run->spec, run->state, late); });
    }
  }
  uint64_t tag = waits.next_tag++;
  PoolRequest request{std::move(send.call), run->lane, left, 0, tag};
  if (waits.monitored.insert(run->pool.address()).second) self->monitor(run->pool);
  self->send(run->pool, std::move(request));
  waits.runs.emplace(tag, std::move(run));
}

// Runs `next` and applies the step it returns.
void Guarded(caf::event_based_actor* self, LoopWaits& waits, const std::shared_ptr<LoopRun>& run,
             const std::function<pipeline::Step()>& next) {
  try {
    Apply(self, waits, run, next());
  } catch (const std::exception& e) {
    Finish(run, pipeline::ErrorResult(ErrorCode::kInternal,
                                      std::string("unexpected exception: ") + e.what()));
  } catch (...) {
    Finish(run, pipeline::ErrorResult(ErrorCode::kInternal, "unexpected exception"));
  }
}

}  // namespace

void StartLoop(caf::event_based_actor* self, LoopWaits& waits, std::shared_ptr<LoopRun> run) {
  Guarded(self, waits, run, [&] { return pipeline::Start(run->spec, run->state); });
}

void OnPoolReply(caf::event_based_actor* self, LoopWaits& waits, PoolReply& r) {
  auto it = waits.runs.find(r.tag);
  if (it == waits.runs.end()) return;
  std::shared_ptr<LoopRun> run = std::move(it->second);
  waits.runs.erase(it);
  Note(*run, r);
  if (r.status.code() == Code::kDeadlineExceeded && run->timeout_ms > 0) {
    r.status = Status(Code::kDeadlineExceeded,
                      pipeline::DeadlineMessage(run->timeout_ms, run->timing, r.status.message()));
  }
  Result<providers::ProviderReply> reply =
      r.status.ok() ? Result<providers::ProviderReply>(std::move(r.reply))
                    : Result<providers::ProviderReply>(r.status);
  Guarded(self, waits, run, [&] { return pipeline::OnReply(run->spec, run->state, reply); });
}

void OnCheckDone(caf::event_based_actor* self, LoopWaits& waits, CheckDone& done) {
  auto it = waits.runs.find(done.tag);
  if (it == waits.runs.end()) return;
  std::shared_ptr<LoopRun> run = std::move(it->second);
  waits.runs.erase(it);
  Guarded(self, waits, run, [&] { return pipeline::OnCheck(run->spec, run->state, done.verdict); });
}

void OnPoolDown(caf::event_based_actor* self, LoopWaits& waits, const caf::down_msg& down) {
  waits.monitored.erase(down.source);
  std::vector<std::shared_ptr<LoopRun>> failed;
  for (auto it = waits.runs.begin(); it != waits.runs.end();) {
    if (it->second->pool.address() == down.source) {
      failed.push_back(std::move(it->second));
      it = waits.runs.erase(it);
    } else {
      ++it;
    }
  }
  Status st(Code::kUnavailable, "provider pool failed: " + caf::to_string(down.reason));
  for (auto& run : failed) {
    Guarded(self, waits, run, [&] { return pipeline::OnReply(run->spec, run->state, st); });
  }
}

}  // namespace structure::actors
