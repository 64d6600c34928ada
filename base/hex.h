// Hex digits in text: reading one, writing a 64-bit number, and percent-decoding (RFC 3986
// section 2.1), the one place for each.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace structure {

// The value of one hex digit ('0'-'9', 'a'-'f', 'A'-'F'), or -1 for anything else. Takes a code
// point; a negative char converts to a large value and is no digit either.
constexpr int HexDigitValue(uint32_t c) {
  if (c >= '0' && c <= '9') return static_cast<int>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<int>(c - 'a' + 10);
  if (c >= 'A' && c <= 'F') return static_cast<int>(c - 'A' + 10);
  return -1;
}

// `v` as 16 lower-case hex digits, leading zeros kept ("00000000000000ff").
std::string Hex64(uint64_t v);

// How a "+" reads: as itself (URI paths and fragments), or as a space (query strings and form
// bodies, application/x-www-form-urlencoded).
enum class PlusIs { kPlus, kSpace };

// `text` with each "%" and two hex digits replaced by the byte they stand for ("a%20b" -> "a b").
// A "%" without two hex digits after it stays as written ("%+1", "%4" at the end).
std::string PercentDecode(std::string_view text, PlusIs plus = PlusIs::kPlus);

}  // namespace structure
