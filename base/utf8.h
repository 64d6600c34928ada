// UTF-8 <-> code points, shared by the JSON parser, the pattern parsers
// (validator_regex_translate, validator_backtrack), the pattern sampler and the IDNA check.
// ReadUtf8/DecodeUtf8 do not validate: an invalid or truncated sequence reads as its first
// byte, one code point. Utf8ErrorAt finds the first byte that is not well-formed UTF-8
// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF); inputs are checked with
// it where they enter, so the JSON we send is always valid.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace structure {

// The code point at s[*i]; advances *i past it.
inline uint32_t ReadUtf8(std::string_view s, size_t* i) {
  unsigned char c = static_cast<unsigned char>(s[*i]);
  int n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 1;
  if (*i + n > s.size()) n = 1;
  uint32_t cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (int k = 1; k < n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[*i + k]) & 0x3F);
  *i += n;
  return cp;
}

// The code points of UTF-8 text.
inline std::vector<uint32_t> DecodeUtf8(std::string_view s) {
  std::vector<uint32_t> out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) out.push_back(ReadUtf8(s, &i));
  return out;
}

// The length of the well-formed sequence at s[i], or 0 when the bytes there are not one.
inline size_t Utf8SequenceLength(std::string_view s, size_t i) {
  auto at = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = at(i);
  if (c < 0x80) return 1;
  size_t n = c >= 0xC2 && c <= 0xDF   ? 2
             : c >= 0xE0 && c <= 0xEF ? 3
             : c >= 0xF0 && c <= 0xF4 ? 4
                                      : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k) {
    if ((at(i + k) & 0xC0) != 0x80) return 0;
  }
  unsigned char d = at(i + 1);
  if (c == 0xE0 && d < 0xA0) return 0;  // overlong
  if (c == 0xED && d > 0x9F) return 0;  // UTF-16 surrogate
  if (c == 0xF0 && d < 0x90) return 0;  // overlong
  if (c == 0xF4 && d > 0x8F) return 0;  // above U+10FFFF
  return n;
}

// The offset of the first byte of s[from, to) that does not start a well-formed UTF-8
// sequence (a sequence cut off at `to` counts as invalid); npos when all of it is valid.
// ASCII is skipped eight bytes at a time.
inline size_t Utf8ErrorAt(std::string_view s, size_t from = 0, size_t to = std::string_view::npos) {
  if (to > s.size()) to = s.size();
  std::string_view t = s.substr(0, to);
  size_t i = from;
  while (i < to) {
    if (i + 8 <= to) {
      uint64_t w;
      std::memcpy(&w, t.data() + i, 8);
      if ((w & 0x8080808080808080ULL) == 0) {
        i += 8;
        continue;
      }
    }
    size_t n = Utf8SequenceLength(t, i);
    if (n == 0) return i;
    i += n;
  }
  return std::string_view::npos;
}

// "invalid UTF-8 at byte N" when `text` is not well-formed UTF-8, else "".
inline std::string Utf8Error(std::string_view text) {
  size_t at = Utf8ErrorAt(text);
  return at == std::string_view::npos ? std::string()
                                      : "invalid UTF-8 at byte " + std::to_string(at);
}

inline void AppendUtf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

}  // namespace structure
