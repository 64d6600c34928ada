// Text normalisation for evidence matching: Unicode NFKC with case folding (ICU's
// NFKC_Casefold, which also drops default-ignorable characters), white space folded to single
// spaces, typographic quotes and dashes folded to their ASCII forms, every Unicode decimal digit
// (Nd: Arabic-Indic, Devanagari, full-width, ...) read as its ASCII digit. Each byte of the
// normalised text knows the bytes of the original it came from, so a match found in normalised
// text is reported at its place in the original.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace structure::pipeline::evidence {

struct NormalizedText {
  std::string text;  // normalised UTF-8, no leading or trailing space
  // For each byte of `text`: the original bytes [begin, end) of the segment it came from (a
  // code point with the combining marks that normalise together with it).
  std::vector<uint32_t> origin_begin;
  std::vector<uint32_t> origin_end;
};

// Normalises UTF-8 text (invalid bytes read as U+FFFD) and maps it back to the original.
// Thread-safe; no state is kept between calls.
NormalizedText Normalize(std::string_view text);

// The normalised text alone (the same text as Normalize(text).text).
std::string NormalizeString(std::string_view text);

}  // namespace structure::pipeline::evidence
