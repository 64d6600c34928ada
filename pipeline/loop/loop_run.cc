#include "pipeline/loop/loop_run.h"

#include "pipeline/loop/split_loop.h"

namespace structure::pipeline {
namespace {

RunStep FromStep(Step step) {
  if (auto* send = std::get_if<SendCall>(&step)) {
    SendCalls out;
    out.calls.push_back({0, std::move(send->call)});
    return out;
  }
  if (auto* fin = std::get_if<Finish>(&step)) return std::move(*fin);
  return std::get<RunCheck>(std::move(step));
}

bool IsSplit(const LoopSpec& spec) { return spec.plan && spec.plan->split != nullptr; }

}  // namespace

RunStep RunStart(const LoopSpec& spec, RunState& state) {
  if (!IsSplit(spec)) return FromStep(Start(spec, state.loop));
  state.split = std::make_shared<SplitState>();
  return SplitStart(spec, *state.split);
}

RunStep RunOnReply(const LoopSpec& spec, RunState& state, int slot,
                   const Result<providers::ProviderReply>& reply) {
  if (state.split) return SplitOnReply(spec, *state.split, slot, reply);
  if (slot != 0) return SendCalls{};
  return FromStep(OnReply(spec, state.loop, reply));
}

RunStep RunOnCheck(const LoopSpec& spec, RunState& state,
                   const Result<std::vector<std::string>>& lines) {
  if (state.split) return SplitOnCheck(spec, *state.split, lines);
  return FromStep(OnCheck(spec, state.loop, lines));
}

Finish RunFail(const LoopSpec& spec, RunState& state, ErrorCode code, std::string message) {
  if (state.split) return SplitFail(spec, *state.split, code, std::move(message));
  return FailLoop(spec, state.loop, code, std::move(message));
}

}  // namespace structure::pipeline
