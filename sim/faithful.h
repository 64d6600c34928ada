// The "faithful" answer mode (scenario reply {"extract": SPEC}): the answer holds only what the
// text it was sent states, read with patterns the test writes, so an engine that splits an
// input and merges the parts' answers is checked against a known truth rather than random
// values (docs/simulator.md "Faithful answers").
//
//   {"extract": {"fields":  {"invoiceNumber": "Invoice number: (\\S+)", ...},
//                "records": {"lineItems": "(?m)^Line (?P<line>\\d+): (?P<sku>\\S+) ...$"},
//                "numbers": ["line", "qty", "total"]}}
//
// A field is the first match's first group; a record list is every match in order, one record
// per match with a member per named group. Names listed in `numbers` are numbers (integers
// without a '.'), the others strings. A field or list the text does not match is left out. The
// answer is shaped for the request: inside the need envelope, with the evidence form (every
// leaf quoted with its whole match), and with null for the members a strict schema lists and
// the text does not state.
#pragma once

#include "base/json.h"
#include "sim/chat.h"
#include "structure/status.h"

namespace structure::sim {

// kInvalidArgument naming the problem ("records.lineItems: missing ) ...") for a spec that is
// not of the form above or whose pattern does not compile.
Status CheckExtractSpec(const Json& spec);

// The answer to `request` under `spec` (a checked spec), read from the first user turn.
Answer FaithfulAnswer(const Json& spec, const ChatRequest& request);

}  // namespace structure::sim
