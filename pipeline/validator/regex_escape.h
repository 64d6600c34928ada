// ECMA-262 escape syntax shared by the pattern parsers (validator_regex_translate over UTF-8,
// validator_backtrack_parse over code points): hex digits and \uXXXX surrogate pairs.
#pragma once

#include <cstddef>
#include <cstdint>

#include "base/hex.h"

namespace structure::pipeline {

// The code point of a control escape letter (\t \n \r \f \v), or -1 for any other.
inline int ControlEscape(uint32_t letter) {
  switch (letter) {
    case 't':
      return '\t';
    case 'n':
      return '\n';
    case 'r':
      return '\r';
    case 'f':
      return '\f';
    case 'v':
      return 0x0B;
    default:
      return -1;
  }
}

// Reads n hex digits at p[*i] into *v and advances *i; false (nothing consumed) otherwise.
template <typename View>
bool ReadHexDigits(View p, size_t* i, size_t n, uint32_t* v) {
  if (*i + n > p.size()) return false;
  uint32_t value = 0;
  for (size_t k = 0; k < n; ++k) {
    int h = HexDigitValue(static_cast<uint32_t>(p[*i + k]));
    if (h < 0) return false;
    value = value * 16 + static_cast<uint32_t>(h);
  }
  *i += n;
  *v = value;
  return true;
}

// After a \uXXXX escape that gave *cp: when *cp is a high surrogate and "\uYYYY" with a low
// surrogate follows at p[*i], joins the pair into *cp and moves *i past it.
template <typename View>
void JoinSurrogatePair(View p, size_t* i, uint32_t* cp) {
  if (*cp < 0xD800 || *cp > 0xDBFF || *i + 6 > p.size() || p[*i] != '\\' || p[*i + 1] != 'u') {
    return;
  }
  size_t at = *i + 2;
  uint32_t low;
  if (ReadHexDigits(p, &at, 4, &low) && low >= 0xDC00 && low <= 0xDFFF) {
    *cp = 0x10000 + ((*cp - 0xD800) << 10) + (low - 0xDC00);
    *i = at;
  }
}

}  // namespace structure::pipeline
