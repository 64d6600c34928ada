#include "pipeline/evidence/locate.h"

namespace structure::pipeline::evidence {

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
  size_t at = prompt_.find(quote);
  if (at != std::string_view::npos) {
    span.byte_begin = at;
    span.byte_end = at + quote.size();
    span.kind = MatchKind::kExact;
  } else {
    std::string q = NormalizeString(quote);
    if (q.empty()) return std::nullopt;
    const NormalizedText& p = normalized();
    size_t n = p.text.find(q);
    if (n == std::string::npos) return std::nullopt;
    span.byte_begin = p.origin_begin[n];
    span.byte_end = p.origin_end[n + q.size() - 1];
    span.kind = MatchKind::kNormalized;
  }
  span.cp_begin = CodePointOffset(prompt_, span.byte_begin);
  span.cp_end = span.cp_begin + CodePointOffset(prompt_.substr(span.byte_begin),
                                                span.byte_end - span.byte_begin);
  return span;
}

}  // namespace structure::pipeline::evidence
