// The content loop's evidence step, after an answer validated against the user's
// schema: its leaves are checked against the quotes the model gave (pipeline/evidence/check.h).
//   report:  the answer is accepted as it is; the result lists the evidence and the ungrounded
//            leaves.
//   require: ungrounded leaves are re-asked while the loop has rounds left; on the last round an
//            optional one is removed from the data (and listed as ungrounded), a required one
//            ends need-more-input naming it.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "pipeline/loop/content_loop.h"

namespace structure::pipeline {

struct EvidenceVerdict {
  enum class Kind { kAccept, kReask, kNeed };
  Kind kind = Kind::kAccept;
  Json data;        // kAccept: the answer (require: ungrounded optional leaves removed)
  Json evidence;    // kAccept, kNeed: pointer -> {quote, offsets, match, kind}
  Json ungrounded;  // kAccept, kNeed: the pointers of ungrounded leaves
  std::vector<std::string> lines;     // kReask: one reason line per ungrounded leaf
  std::vector<std::string> pointers;  // kReask: the ungrounded leaves, one per line
  std::string reason;                 // kReask: the re-ask text
  std::string need;                   // kNeed: what the input does not state
};

// `claims`: the answer's evidence list (null when the answer skipped the form). `may_reask`:
// the loop has rounds and tokens left for another call. `list_missing`: the answer came in the
// form without its list; require then re-asks for the list alone (BuildMissingListReason), the
// answer being schema-valid, before it judges any value. `files`: the request's attached files;
// quotes are then located in their pages too and placed on them (file_evidence.h).
EvidenceVerdict JudgeEvidence(const LoopPlan& plan, std::string_view prompt, Json data,
                              const Json& claims, bool may_reask, bool list_missing = false,
                              const PreparedFiles* files = nullptr);

// The re-ask text for an answer without its evidence list: the same answer, with the list.
std::string BuildMissingListReason();

// The result's error line for it (no name of the form: the user never sees it).
inline constexpr const char* kMissingListError =
    "(root): the answer came without its evidence (a quote of the input for each value); the "
    "quotes were asked for again";

// The re-ask text for ungrounded leaves:
//   These values of the previous output are not supported by the input:
//   - /when: "2026-05-06T09:30" is not supported by the input (quoted "yesterday", not found in the
//   text)
//
//   For each value, quote verbatim the shortest passage of the input that states it, or leave
//   out a value the input does not state. Do not change supported values.
std::string BuildEvidenceReason(const std::vector<std::string>& lines, size_t max_lines = 20);

}  // namespace structure::pipeline
