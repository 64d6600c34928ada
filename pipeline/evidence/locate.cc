#include "pipeline/evidence/locate.h"

#include <algorithm>
#include <functional>

namespace structure::pipeline::evidence {
namespace {

// The first place of `needle` in `text`. string_view::find compares at every candidate place,
// O(n·m) when the model quotes a long repetitive passage of a long prompt; long quotes go
// through Boyer-Moore, whose search for a first match is linear.
size_t FindFirst(std::string_view text, std::string_view needle) {
  constexpr size_t kShort = 64;
  if (needle.size() < kShort || needle.size() > text.size()) return text.find(needle);
  auto it = std::search(text.begin(), text.end(),
                        std::boyer_moore_searcher(needle.begin(), needle.end()));
  return it == text.end() ? std::string_view::npos : static_cast<size_t>(it - text.begin());
}

}  // namespace

std::string_view MatchKindName(MatchKind kind) {
  return kind == MatchKind::kExact ? "exact" : "normalized";
}

size_t CodePointOffset(std::string_view text, size_t bytes) {
  size_t n = 0;
  if (bytes > text.size()) bytes = text.size();
  for (size_t i = 0; i < bytes; ++i) {
    if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80) ++n;
  }
  return n;
}

const NormalizedText& PromptIndex::normalized() {
  if (!normalized_) normalized_ = Normalize(prompt_);
  return *normalized_;
}

std::optional<Span> PromptIndex::Locate(std::string_view quote) {
  if (quote.empty()) return std::nullopt;
  Span span;
  size_t at = FindFirst(prompt_, quote);
  if (at != std::string_view::npos) {
    span.byte_begin = at;
    span.byte_end = at + quote.size();
    span.kind = MatchKind::kExact;
  } else {
    std::string q = NormalizeString(quote);
    if (q.empty()) return std::nullopt;
    const NormalizedText& p = normalized();
    size_t n = FindFirst(p.text, q);
    if (n == std::string::npos) return std::nullopt;
    span.byte_begin = p.origin_begin[n];
    span.byte_end = p.origin_end[n + q.size() - 1];
    span.kind = MatchKind::kNormalized;
  }
  span.cp_begin = CodePointOffset(prompt_, span.byte_begin);
  span.cp_end = span.cp_begin +
                CodePointOffset(prompt_.substr(span.byte_begin), span.byte_end - span.byte_begin);
  return span;
}

}  // namespace structure::pipeline::evidence
