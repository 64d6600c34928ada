// Why a content-stage answer was sent back: the category of each re-ask, for the metrics
// (pipeline/call_stats.h). Validation failures are categorised by the validator's keyword;
// semantic-check lines, unparseable or cut-off answers and need-form misuse have their own.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>
#include <vector>

namespace structure::pipeline {

struct ValidationError;  // pipeline/validator/validator.h

enum class ReaskReason : uint8_t {
  kType,                  // type
  kRequired,              // required, dependentRequired
  kAdditionalProperties,  // additionalProperties, unevaluatedProperties, propertyNames, false
  kEnumConst,             // enum, const
  kPattern,               // pattern
  kFormat,                // format
  kBounds,                // minimum, maximum, exclusive*, multipleOf, min/maxProperties
  kLength,                // minLength, maxLength
  kItems,                 // items, prefixItems, min/maxItems, uniqueItems, contains, ...
  kSemantic,              // a semantic check's violation
  kParse,                 // not JSON, cut off at the token limit, not in the form asked
  kNeed,                  // a need answer in the wrong form
  kOther,                 // any other keyword (anyOf, oneOf, not, if/then/else, ...)
};
inline constexpr size_t kReaskReasonCount = 13;

// Re-asks per reason; index = ReaskReason.
using ReaskCounts = std::array<uint32_t, kReaskReasonCount>;

// "type", "required", "additionalProperties", "enum/const", "pattern", "format", "bounds",
// "length", "items", "semantic", "parse", "need", "other".
std::string_view ReaskReasonName(ReaskReason reason);

// The category of one validator error (by its keyword; a false schema by where it sits).
ReaskReason ReaskReasonOf(const ValidationError& error);

// A set of reasons, one bit each.
using ReaskReasons = uint32_t;
constexpr ReaskReasons ReasonBit(ReaskReason r) { return ReaskReasons{1} << static_cast<int>(r); }
ReaskReasons ReaskReasonsOf(const std::vector<ValidationError>& errors);

// Counts one re-ask under each reason in `reasons`.
void CountReask(ReaskCounts& counts, ReaskReasons reasons);

}  // namespace structure::pipeline
