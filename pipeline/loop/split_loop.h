// The loop of a split plan (pipeline/lowering/split_plan.h). Pure, like the content loop:
//
//   round 1: every part is asked at once, with the same prompt and manual and its own strict
//            schema, in part order (a stable prefix for the provider's prompt cache); each part
//            runs its own content loop and is re-asked alone for its own violations;
//   then:    the answers are merged and validated against the ORIGINAL schema. A violation is
//            re-asked in the one call that owns it: its part, or, for a constraint that spans
//            parts, one call holding exactly the fields that constraint reads. A list split by
//            columns whose parts gave other entries is re-asked in the part that differs, with
//            the entries it must line up with.
//
// Rounds, not calls, count against max_loops; usage sums every call. A part that answers
// need-more-input makes the whole result need-more-input (the need texts joined, once the
// calls in flight are back); an error or a stale part ends the run the same way.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "pipeline/loop/content_loop.h"
#include "pipeline/loop/loop_run.h"
#include "pipeline/loop/reask_reason.h"
#include "pipeline/lowering/split_plan.h"

namespace structure::pipeline {

// A split plan ready to run: the lowering's plan, and a loop plan per part and per constraint
// that spans parts (in the plan's order). Immutable; shared through LoopPlan::split.
struct SplitLoopPlan {
  SplitPlan plan;
  std::vector<std::shared_ptr<const LoopPlan>> parts;
  std::vector<std::shared_ptr<const LoopPlan>> cross;
};

// One content loop of a split run: a part's, or a re-ask's.
struct SubRun {
  LoopSpec spec;
  LoopState state;
  int part = -1;                      // the part it answers for; -1: a constraint's re-ask
  int first_round = 0;                // the split's rounds before its first call
  std::vector<std::string> pointers;  // the fields it answers
  bool in_flight = false;
  std::optional<CallResult> result;
};

struct SplitState {
  std::vector<SubRun> runs;   // a call's slot is its run's index
  std::vector<size_t> batch;  // the runs of the current round
  std::vector<Json> answers;  // per part: its latest accepted answer
  // Re-asks of constraints that span parts, applied over the merge in order.
  std::vector<std::pair<std::vector<std::string>, Json>> fixes;
  int rounds = 0;            // rounds finished before the current batch
  bool stopping = false;     // a loop ended without an answer: no new calls
  Json merged;               // while an external check runs on it
  ReaskCounts reasks{};      // re-asks of the merged answer, by reason
  int64_t refused_cost = 0;  // the calls the token budget did not pay for (their estimate)
};

RunStep SplitStart(const LoopSpec& spec, SplitState& state);
RunStep SplitOnReply(const LoopSpec& spec, SplitState& state, int slot,
                     const Result<providers::ProviderReply>& reply);
RunStep SplitOnCheck(const LoopSpec& spec, SplitState& state,
                     const Result<std::vector<std::string>>& lines);
Finish SplitFail(const LoopSpec& spec, SplitState& state, ErrorCode code, std::string message);

}  // namespace structure::pipeline
