// Judges one candidate answer of the content loop: parse it (strictly, or tolerantly from
// prose), recognise the need form, lift it back to the original shape and validate it against
// the ORIGINAL schema. Semantic checks come after, in the loop.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "pipeline/loop/content_loop.h"

namespace structure::pipeline {

struct Candidate {
  std::string_view text;      // the answer's text or a tool call's arguments
  bool truncated = false;     // the reply was cut off at max_tokens
  bool strict_parse = false;  // provider strict output: expect exactly one JSON text
};

struct Verdict {
  enum class Kind { kValid, kNeed, kRejected };
  Kind kind = Kind::kRejected;
  Json data;                              // kValid: the value in the original shape
  std::string need;                       // kNeed: what the model says is missing
  std::vector<std::string> errors;        // kRejected: the result's errors (validator messages)
  std::vector<ValidationError> failures;  // kRejected by the validator: the errors themselves
  std::string reason;                     // kRejected: the re-ask text for the model
  bool form_ignored = false;              // the answer skipped the provider's form (envelope)
  bool truncated = false;                 // array mode: the complete records of a cut-off answer
  ReaskReasons why = 0;                   // kRejected: the re-ask's categories, for the metrics
  Json evidence;  // evidence on: the answer's {path, quote} list (null if none)
  bool evidence_list_missing = false;  // evidence on: the answer came in the form without a list
};

Verdict JudgeCandidate(const LoopPlan& plan, const Candidate& candidate);

}  // namespace structure::pipeline
