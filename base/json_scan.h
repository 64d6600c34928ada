// The end of a plain run in JSON string text: the first byte that is '"', '\\' or a control
// character (below 0x20). Checked eight bytes at a time: the writer copies such runs whole
// into its output and the parser into the string it builds.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace structure {

// Index of the first byte at or after `from` that is '"', '\\' or below 0x20; s.size() if none.
// *non_ascii is set when a byte of the run (before that index) is 0x80 or above, so callers
// check UTF-8 only in runs that can hold an error.
inline size_t PlainRunEnd(std::string_view s, size_t from, bool* non_ascii) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  uint64_t seen = 0;  // the bytes of the run OR-ed together, lane by lane
  size_t i = from;
  for (; i + 8 <= s.size(); i += 8) {
    uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    // A byte of v is zero <=> its lane in (v - ones) & ~v has the high bit set (for the test
    // "any lane": lanes above a true hit may be flagged too, never a lane without one).
    uint64_t quote = w ^ (kOnes * '"');
    uint64_t slash = w ^ (kOnes * '\\');
    uint64_t control = (w - kOnes * 0x20) & ~w;  // bytes below 0x20 (never bytes >= 0x80)
    if ((((quote - kOnes) & ~quote) | ((slash - kOnes) & ~slash) | control) & kHigh) break;
    seen |= w;
  }
  for (; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == '"' || c == '\\') break;
    seen |= c;
  }
  *non_ascii = (seen & kHigh) != 0;
  return i;
}

}  // namespace structure
