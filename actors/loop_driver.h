// Drives a request's loop (pipeline/loop/loop_run.h: a content loop, or a split plan's loops)
// against a provider pool from inside an actor: sends each call of a step as a PoolRequest (a
// split's parts all at once) and feeds each reply back with its slot until a Finish; hands
// each RunCheck to the run's CheckRunner (its own thread: the actor never waits for a check)
// and feeds the verdict, which comes back as a CheckDone message, into OnCheck. An exception
// in a step (a bug, or memory exhausted) finishes the loop with an internal error.
//
// The actor sends (not requests) and keeps its waiting runs in a LoopWaits, matched by
// PoolRequest::tag (see actors/messages.h for why). Its behavior hands every PoolReply to
// OnPoolReply and its down handler every down message to OnPoolDown: a pool that dies fails the
// runs waiting on it instead of leaving them waiting.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <unordered_map>
#include <unordered_set>

#include <caf/all.hpp>

#include "actors/check_runner.h"
#include "actors/messages.h"
#include "actors/provider_pool.h"
#include "pipeline/loop/content_loop.h"
#include "pipeline/loop/deadline.h"
#include "pipeline/loop/loop_run.h"

namespace structure::actors {

struct LoopRun {
  pipeline::LoopSpec spec;
  pipeline::RunState state;
  ProviderPoolActor pool;
  // The external check (spec.external_check) and the runner it runs on.
  std::shared_ptr<const CheckCommand> check;
  std::shared_ptr<CheckRunner> check_runner;
  Lane lane = Lane::kInteractive;
  // The call's deadline: its start + callTimeoutMs (`timeout_ms`; 0 = none). Every provider
  // call gets the time left; a bulk call's deadline moves by its waits for a turn under the rate
  // limits (docs/batch.md). Passing it ends the loop with deadline_exceeded, saying where the
  // time went (`timing`).
  std::chrono::steady_clock::time_point deadline;
  int64_t timeout_ms = 0;
  pipeline::CallTiming timing;
  std::function<void(pipeline::CallResult)> on_finish;  // runs once, in the actor
  bool finished = false;                                // on_finish has run
};

// An external check's verdict for the run waiting under `tag`.
struct CheckDone {
  uint64_t tag = 0;
  CheckVerdict verdict = Status(Code::kInternal, "no verdict");
};

// The runs one actor has waiting for a pool reply or a check's verdict, by tag.
struct LoopWaits {
  struct Waiting {
    std::shared_ptr<LoopRun> run;
    int slot = 0;  // the call's slot in its run (pipeline::SlotCall)
  };
  std::unordered_map<uint64_t, Waiting> runs;
  std::unordered_set<caf::actor_addr> monitored;  // pools this actor monitors
  uint64_t next_tag = 1;
};

// Starts the loop. `self` and `waits` (its state) must outlive the run.
void StartLoop(caf::event_based_actor* self, LoopWaits& waits, std::shared_ptr<LoopRun> run);

// Continues the run the reply is for (a reply no run waits for is dropped).
void OnPoolReply(caf::event_based_actor* self, LoopWaits& waits, PoolReply& reply);

// Continues the run the check's verdict is for (one no run waits for is dropped). An actor
// whose runs may have external checks hands every CheckDone to it.
void OnCheckDone(caf::event_based_actor* self, LoopWaits& waits, CheckDone& done);

// Fails the runs waiting on the pool that went down.
void OnPoolDown(caf::event_based_actor* self, LoopWaits& waits, const caf::down_msg& down);

}  // namespace structure::actors

CAF_ALLOW_UNSAFE_MESSAGE_TYPE(structure::actors::CheckDone)
