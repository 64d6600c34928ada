// The evidence check of one answer: each leaf of the data (leaves.h) is tied to the quote the
// model gave for its pointer; the quote is located in the prompt (locate.h) and the value is
// checked against it (value_match.h). A leaf is grounded when both succeed, else ungrounded,
// with the reason worded for the re-ask.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "pipeline/evidence/locate.h"
#include "pipeline/evidence/value_match.h"
#include "structure/status.h"

namespace structure::pipeline::evidence {

// One {path, quote} pair of the answer's evidence list.
struct Claim {
  std::string path;
  std::string quote;
};

// Reads the evidence list [{path, quote}, ...]; entries that are not such objects are skipped
// (a leaf without a usable claim is ungrounded anyway).
std::vector<Claim> ReadClaims(const Json& evidence);

struct Grounded {
  std::string pointer;
  std::string quote;
  Span span;  // the quote's place in the prompt
  LeafKind kind;
};

struct Ungrounded {
  std::string pointer;
  std::string value;       // the value as JSON text
  std::string quote;       // empty when none was given
  std::string why;         // "no quote was given", "not found in the text", "which does not ..."
  bool not_found = false;  // a quote was given and is nowhere in the text
};

struct EvidenceReport {
  std::vector<Grounded> grounded;
  std::vector<Ungrounded> ungrounded;
};

// Checks every leaf of `data` (the answer in the user's shape, `schema` the ORIGINAL schema)
// against the claims and the prompt.
EvidenceReport CheckEvidence(const Json& data, const Json& schema, std::string_view prompt,
                             const std::vector<Claim>& claims);

// The re-ask line of an ungrounded leaf:
// - /timestamp: "2026-05-06T09:30" is not supported by the input (quoted "yesterday", not found
//   in the text)
std::string ReasonLine(const Ungrounded& u);

// {"evidence": {pointer: {quote, byteStart, byteEnd, cpStart, cpEnd, match}}, "ungrounded": [..]}
// members for the result.
Json EvidenceJson(const EvidenceReport& report);
Json UngroundedJson(const EvidenceReport& report);

}  // namespace structure::pipeline::evidence
