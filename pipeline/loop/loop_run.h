// One request's loop as its drivers see it (the request host, the provider batch runner): the
// content loop of a plan asked whole, or the loops of a split plan's parts (split_loop.h),
// behind one set of pure step functions. A step may send several calls at once; each call
// carries a slot, and its reply comes back with that slot.
#pragma once

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "pipeline/loop/content_loop.h"
#include "providers/call.h"
#include "structure/status.h"

namespace structure::pipeline {

struct SlotCall {
  int slot = 0;
  providers::ProviderCall call;
};

// Calls to send now, in a stable order; none: wait for the replies of the calls in flight.
struct SendCalls {
  std::vector<SlotCall> calls;
};

using RunStep = std::variant<SendCalls, Finish, RunCheck>;

struct SplitState;

struct RunState {
  LoopState loop;                     // a plan asked whole (slot 0)
  std::shared_ptr<SplitState> split;  // a split plan's loops
};

// The first calls.
RunStep RunStart(const LoopSpec& spec, RunState& state);

// The reply (or the pool's final error) for the call sent under `slot`. A slot that waits for
// nothing is ignored (SendCalls with no calls).
RunStep RunOnReply(const LoopSpec& spec, RunState& state, int slot,
                   const Result<providers::ProviderReply>& reply);

// The external check's verdict on RunCheck::data (content_loop.h, OnCheck).
RunStep RunOnCheck(const LoopSpec& spec, RunState& state,
                   const Result<std::vector<std::string>>& lines);

// Ends the run with an error that is no reply of the provider (content_loop.h, FailLoop).
Finish RunFail(const LoopSpec& spec, RunState& state, ErrorCode code, std::string message);

}  // namespace structure::pipeline
