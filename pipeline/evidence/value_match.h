// The value-against-quote check of one leaf of the answer: does the passage the model quoted
// state this value? Strings must occur in the quote (both normalised; or their words in order,
// so "broke_build" is stated by "broke the build"); numbers are read as number_match.h says;
// dates and times as date_match.h says; classifications (enum, const, boolean) are not matched:
// their quote is the passage the classification rests on.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "base/json.h"
#include "pipeline/evidence/date_match.h"

namespace structure::pipeline::evidence {

enum class LeafKind {
  kText,            // a string
  kNumber,          // a number
  kDateTime,        // a string with format date, date-time or time, or in ISO 8601 form
  kClassification,  // a boolean, or a value the schema lists (enum, const)
};

std::string_view LeafKindName(LeafKind kind);  // "text" | "number" | "date-time" | "classification"

// Empty when `normalized_quote` (normalize.h) states `value`; else why not, worded to follow
// "quoted \"...\", ", e.g. "which does not contain it". `context` gives the input's dates
// (built on first use by the caller; called only for dates).
std::string CheckValue(const Json& value, LeafKind kind, std::string_view normalized_quote,
                       const std::function<const DateContext&()>& context);

}  // namespace structure::pipeline::evidence
