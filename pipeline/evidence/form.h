// The form the provider is given when evidence is on: the user's schema as "answer", beside
// it "evidence", a list of {path, quote} (the JSON pointer of a leaf of the answer and the
// shortest verbatim passage of the input that supports it). The form is lowered like any
// schema; the answer is split out of it again before validation against the user's schema.
#pragma once

#include "base/json.h"

namespace structure::pipeline::evidence {

inline constexpr const char* kAnswerKey = "answer";
inline constexpr const char* kEvidenceKey = "evidence";

// {"type": "object", "properties": {"answer": SCHEMA, "evidence": [...]}, required both,
// closed}. The schema's root $defs/definitions and $schema move to the form's root and its
// local refs ("#/properties/x") are rewritten to point into "answer".
Json EvidenceFormSchema(const Json& schema);

struct SplitAnswer {
  Json answer;
  Json evidence;              // the list as given; null when there is none
  bool in_form = false;       // the answer came in the form: an object with an "answer" member
  bool list_missing = false;  // in the form, without an evidence list (none, or not an array)
};

// Takes the answer and its evidence list out of an answer in the form: an object with an
// "answer" member (other members than "evidence" are dropped), unless `whole_is_answer` (the
// object validates as it is against the user's schema, which may have an "answer" property).
// Any other value is the answer itself, without evidence.
SplitAnswer SplitEvidence(Json parsed, bool whole_is_answer = false);

}  // namespace structure::pipeline::evidence
