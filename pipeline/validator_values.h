// Internal: value helpers over simdjson elements for the evaluator: JSON Schema equality
// (1 == 1.0, key order ignored) against elements and Json, hashing for uniqueItems, compact
// truncated rendering for error messages, number formatting.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <simdjson.h>

#include "base/json.h"

namespace structure::pipeline::validator_internal {

bool ElementsEqual(const simdjson::dom::element& a, const simdjson::dom::element& b);
bool ElementEqualsJson(const simdjson::dom::element& a, const Json& b);
uint64_t ElementHash(const simdjson::dom::element& e);

// The numeric value of a number element (int64, uint64 or double) as a double.
double NumberValue(const simdjson::dom::element& e);

// Compact JSON of e, cut at max_chars (on a UTF-8 boundary) with "..." appended.
std::string CompactTruncated(const simdjson::dom::element& e, size_t max_chars = 80);
std::string CompactTruncated(const Json& j, size_t max_chars = 80);

// Shortest round-trip text of a number: "5", "0.5", "1e+308".
std::string FormatNumber(double v);

// Number of Unicode code points in UTF-8 text.
size_t CodePoints(std::string_view s);

}  // namespace structure::pipeline::validator_internal
