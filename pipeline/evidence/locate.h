// Locating a quote in the prompt: the exact bytes first, then the normalised forms of both
// (normalize.h). The place is reported as byte offsets and as Unicode code point offsets, so a
// caller in any language can slice the prompt.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "pipeline/evidence/normalize.h"

namespace structure::pipeline::evidence {

enum class MatchKind {
  kExact,       // the quote's bytes occur in the prompt
  kNormalized,  // they occur once both are normalised (NFKC, case, white space, quotes)
};

std::string_view MatchKindName(MatchKind kind);  // "exact" | "normalized"

// A passage of the prompt: [byte_begin, byte_end) and the same passage in code points.
struct Span {
  size_t byte_begin = 0;
  size_t byte_end = 0;
  size_t cp_begin = 0;
  size_t cp_end = 0;
  MatchKind kind = MatchKind::kExact;
};

// The number of code points in the first `bytes` bytes of UTF-8 text (continuation bytes do not
// count; an invalid byte counts as one).
size_t CodePointOffset(std::string_view text, size_t bytes);

// One prompt, searched for many quotes. The normalised prompt is built on the first quote that
// is not found exactly and kept. Holds a view: the prompt must outlive the index. Not
// thread-safe (one index per call).
class PromptIndex {
 public:
  explicit PromptIndex(std::string_view prompt) : prompt_(prompt) {}

  // The first place of `quote` in the prompt; nullopt when it is empty or not there.
  std::optional<Span> Locate(std::string_view quote);

  std::string_view prompt() const { return prompt_; }
  // The normalised prompt (built on first use).
  const NormalizedText& normalized();

 private:
  std::string_view prompt_;
  std::optional<NormalizedText> normalized_;
};

}  // namespace structure::pipeline::evidence
