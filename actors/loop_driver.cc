#include "actors/loop_driver.h"

#include <exception>
#include <vector>

namespace structure::actors {

namespace {

void Guarded(caf::event_based_actor* self, LoopWaits& waits, const std::shared_ptr<LoopRun>& run,
             const std::function<pipeline::RunStep()>& next);

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
           pipeline::RunStep step) {
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
    waits.runs.emplace(tag, LoopWaits::Waiting{std::move(run), -1});
    runner->Run(*command, ToJson(check->data), std::move(prompt), [me, tag](CheckVerdict v) {
      caf::anon_send(me, CheckDone{tag, std::move(v)});
    });
    return;
  }
  auto& send = std::get<pipeline::SendCalls>(step);
  if (send.calls.empty()) return;
  std::chrono::milliseconds left{0};
  if (run->timeout_ms > 0) {
    left = std::chrono::ceil<std::chrono::milliseconds>(run->deadline -
                                                        std::chrono::steady_clock::now());
    if (left.count() <= 0) {
      // Every call of the step ends unsent (a split's parts each see it; the run ends once).
      Status late(Code::kDeadlineExceeded,
                  pipeline::DeadlineMessage(run->timeout_ms, run->timing,
                                            "no time was left for the next provider call"));
      for (const pipeline::SlotCall& c : send.calls) {
        Guarded(self, waits, run,
                [&] { return pipeline::RunOnReply(run->spec, run->state, c.slot, late); });
      }
      return;
    }
  }
  if (waits.monitored.insert(run->pool.address()).second) self->monitor(run->pool);
  for (pipeline::SlotCall& c : send.calls) {
    uint64_t tag = waits.next_tag++;
    PoolRequest request{std::move(c.call), run->lane, left, 0, tag};
    self->send(run->pool, std::move(request));
    waits.runs.emplace(tag, LoopWaits::Waiting{run, c.slot});
  }
}

// Runs `next` and applies the step it returns.
void Guarded(caf::event_based_actor* self, LoopWaits& waits, const std::shared_ptr<LoopRun>& run,
             const std::function<pipeline::RunStep()>& next) {
  if (run->finished) return;  // a late reply of a run that has ended
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
  Guarded(self, waits, run, [&] { return pipeline::RunStart(run->spec, run->state); });
}

void OnPoolReply(caf::event_based_actor* self, LoopWaits& waits, PoolReply& r) {
  auto it = waits.runs.find(r.tag);
  if (it == waits.runs.end()) return;
  LoopWaits::Waiting w = std::move(it->second);
  waits.runs.erase(it);
  const std::shared_ptr<LoopRun>& run = w.run;
  Note(*run, r);
  if (r.status.code() == Code::kDeadlineExceeded && run->timeout_ms > 0) {
    r.status = Status(Code::kDeadlineExceeded,
                      pipeline::DeadlineMessage(run->timeout_ms, run->timing, r.status.message()));
  }
  Result<providers::ProviderReply> reply =
      r.status.ok() ? Result<providers::ProviderReply>(std::move(r.reply))
                    : Result<providers::ProviderReply>(r.status);
  Guarded(self, waits, run,
          [&] { return pipeline::RunOnReply(run->spec, run->state, w.slot, reply); });
}

void OnCheckDone(caf::event_based_actor* self, LoopWaits& waits, CheckDone& done) {
  auto it = waits.runs.find(done.tag);
  if (it == waits.runs.end()) return;
  std::shared_ptr<LoopRun> run = std::move(it->second.run);
  waits.runs.erase(it);
  Guarded(self, waits, run,
          [&] { return pipeline::RunOnCheck(run->spec, run->state, done.verdict); });
}

void OnPoolDown(caf::event_based_actor* self, LoopWaits& waits, const caf::down_msg& down) {
  waits.monitored.erase(down.source);
  std::vector<LoopWaits::Waiting> failed;
  for (auto it = waits.runs.begin(); it != waits.runs.end();) {
    if (it->second.slot >= 0 && it->second.run->pool.address() == down.source) {
      failed.push_back(std::move(it->second));
      it = waits.runs.erase(it);
    } else {
      ++it;
    }
  }
  Status st(Code::kUnavailable, "provider pool failed: " + caf::to_string(down.reason));
  for (LoopWaits::Waiting& w : failed) {
    const std::shared_ptr<LoopRun>& run = w.run;
    Guarded(self, waits, run,
            [&] { return pipeline::RunOnReply(run->spec, run->state, w.slot, st); });
  }
}

}  // namespace structure::actors
