// Tolerant parsing for the fallback path (no provider enforcement): finds the JSON value in a
// model's answer — bare, inside a code fence, or with prose around it — and repairs only what
// is unambiguous. Anything else is an error that becomes a reason for the next loop, never a
// guessed value.
#pragma once

#include <string>
#include <string_view>

#include "base/json.h"
#include "structure/status.h"

namespace structure::pipeline {

struct Extracted {
  Json value;
  bool repaired = false;   // trailing commas were removed
  bool had_prose = false;  // text around the JSON value was ignored
};

// Strict: the whole text must be one JSON value (white space allowed). Used on the strict path.
Result<Json> ParseStrict(std::string_view text);

// Tolerant: tries, in order, the whole text; the first ```json / ``` fenced block; the first
// balanced {...} or [...] span that parses. The only repair is dropping trailing commas before
// '}' or ']' (outside strings). kInvalidArgument says what was found instead, e.g.
// "no JSON object found in the answer" or "JSON is truncated (unbalanced '{')".
Result<Extracted> ExtractJson(std::string_view text);

}  // namespace structure::pipeline
