// Internal: value helpers over simdjson elements for the evaluator: JSON Schema equality
// (1 == 1.0, key order ignored) against elements and Json, hashing for uniqueItems, compact
// truncated rendering for error messages, number formatting.
#pragma once

#include <cstdint>
#include <cstring>
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

// Exact comparison of two numbers whose doubles are equal: the sign of e - bound when both are
// integers (int64, uint64, integral doubles, Json big integers), else 0 (equal as doubles).
int CompareIntegersExactly(const simdjson::dom::element& e, const Json& bound);

// Compact JSON of e, cut at max_chars (on a UTF-8 boundary) with "..." appended.
std::string CompactTruncated(const simdjson::dom::element& e, size_t max_chars = 80);
std::string CompactTruncated(const Json& j, size_t max_chars = 80);

// Shortest round-trip text of a number: "5", "0.5", "1e+308".
std::string FormatNumber(double v);

// a == b, inline: short keys and enum strings are compared with a few word loads that stay
// inside both strings (no library call on the hot path).
[[gnu::always_inline]] inline bool BytesEqual(std::string_view a, std::string_view b) {
  size_t n = a.size();
  if (n != b.size()) return false;
  const char* p = a.data();
  const char* q = b.data();
  auto load64 = [](const char* s) {
    uint64_t v;
    std::memcpy(&v, s, 8);
    return v;
  };
  auto load32 = [](const char* s) {
    uint32_t v;
    std::memcpy(&v, s, 4);
    return v;
  };
  if (n >= 8) {
    for (size_t i = 0; i + 8 < n; i += 8) {
      if (load64(p + i) != load64(q + i)) return false;
    }
    return load64(p + n - 8) == load64(q + n - 8);
  }
  if (n >= 4) return load32(p) == load32(q) && load32(p + n - 4) == load32(q + n - 4);
  for (size_t i = 0; i < n; ++i) {
    if (p[i] != q[i]) return false;
  }
  return true;
}

// Number of Unicode code points in UTF-8 text.
size_t CodePoints(std::string_view s);

}  // namespace structure::pipeline::validator_internal
