// Generated answers in the evidence form (issue 20): when the schema the request gives is the
// {"answer", "evidence"} form, the simulated model takes plain string and number values from
// the prompt and quotes them; classifications (enum, const, boolean) and constrained strings
// keep their generated value with a quote of some passage. At `ungrounded_rate` one leaf is
// left invented: its generated value, quoted with text that is not in the prompt or with a
// passage that does not state it.
#pragma once

#include <string>

#include "base/json.h"
#include "sim/rng.h"

namespace structure::sim {

// Rewrites the form inside `value` (a generated, schema-valid answer for `schema`: at the root,
// inside an envelope or a union); nothing happens when there is none. Returns true when a leaf
// was left ungrounded on purpose.
bool GroundAnswer(Json& value, const Json& schema, const std::string& prompt,
                  double ungrounded_rate, Rng& rng);

}  // namespace structure::sim
