#include "pipeline/input/split.h"

#include <algorithm>

namespace structure::pipeline {
namespace {

bool IsContinuation(unsigned char c) { return (c & 0xC0) == 0x80; }

// The boundary kinds, best first. Each finder returns the offset just after the boundary (where
// the next text starts), searching backwards from `hi` down to `lo` (both inclusive), or npos.
constexpr size_t kNone = std::string_view::npos;

bool IsSpace(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// After a blank line: "\n\n" or "\n \t\n" (a line of white space only).
size_t ParagraphBefore(std::string_view d, size_t lo, size_t hi) {
  for (size_t i = hi; i >= lo && i > 0; --i) {
    if (i < d.size() && IsSpace(d[i])) continue;  // the next text starts on a non-space
    size_t j = i;
    int newlines = 0;
    while (j > 0 && IsSpace(d[j - 1])) {
      if (d[j - 1] == '\n') ++newlines;
      --j;
    }
    if (newlines >= 2) return i;
    if (i == lo) break;
  }
  return kNone;
}

// After ". ", "! ", "? " (and the same followed by a quote or bracket), before the next text.
size_t SentenceBefore(std::string_view d, size_t lo, size_t hi) {
  for (size_t i = hi; i >= lo && i > 1; --i) {
    if (i < d.size() && IsSpace(d[i])) continue;
    if (!IsSpace(d[i - 1])) {
      if (i == lo) break;
      continue;
    }
    size_t j = i;
    while (j > 0 && IsSpace(d[j - 1])) --j;
    while (j > 0 && (d[j - 1] == '"' || d[j - 1] == '\'' || d[j - 1] == ')')) --j;
    if (j > 0 && (d[j - 1] == '.' || d[j - 1] == '!' || d[j - 1] == '?')) return i;
    if (i == lo) break;
  }
  return kNone;
}

// After a character `c` (a line break or a space), at the next text.
size_t AfterCharBefore(std::string_view d, size_t lo, size_t hi, char c) {
  for (size_t i = hi; i >= lo && i > 0; --i) {
    if (d[i - 1] == c && (i >= d.size() || !IsSpace(d[i]) || c == '\n')) return i;
    if (i == lo) break;
  }
  return kNone;
}

// The best boundary in [lo, hi], by kind: paragraph, sentence, line, word, code point.
size_t BestBoundary(std::string_view d, size_t lo, size_t hi) {
  if (size_t b = ParagraphBefore(d, lo, hi); b != kNone) return b;
  if (size_t b = SentenceBefore(d, lo, hi); b != kNone) return b;
  if (size_t b = AfterCharBefore(d, lo, hi, '\n'); b != kNone) return b;
  if (size_t b = AfterCharBefore(d, lo, hi, ' '); b != kNone) return b;
  for (size_t i = hi; i >= lo && i > 0; --i) {
    if (i >= d.size() || !IsContinuation(static_cast<unsigned char>(d[i]))) return i;
    if (i == lo) break;
  }
  return kNone;
}

}  // namespace

std::vector<InputPart> SplitInput(std::string_view doc, const InputSplitOptions& options) {
  std::vector<InputPart> parts;
  if (doc.empty()) return parts;
  // At least a few UTF-8 sequences per part, so every part makes progress.
  size_t max = std::max<size_t>(options.max_part_bytes, 16);
  size_t overlap = std::min(options.overlap_bytes, max / 4);
  size_t start = 0, shared_end = 0;
  while (true) {
    if (doc.size() - start <= max) {
      parts.push_back({start, doc.size(), shared_end});
      return parts;
    }
    // The cut falls in the part's last half, and after the previous part's end.
    size_t hi = start + max;
    size_t lo = std::max(start + max / 2, shared_end + 1);
    size_t end = BestBoundary(doc, lo, hi);
    if (end == kNone || end <= shared_end) {  // not reached: lo..hi spans a code point boundary
      end = hi;
      while (end > lo && IsContinuation(static_cast<unsigned char>(doc[end]))) --end;
    }
    parts.push_back({start, end, shared_end});
    // The next part starts at the paragraph that holds end - overlap (at most half a part
    // back), else at the best boundary at most twice the overlap back; without one, where this
    // part ends.
    size_t next = kNone;
    if (overlap > 0 && end > start + overlap + 1) {
      next = ParagraphBefore(doc, std::max(start + 1, end - max / 2), end - overlap);
      if (next == kNone || next <= start)
        next = BestBoundary(doc, std::max(start + 1, end - 2 * overlap), end - overlap);
    }
    if (next == kNone || next <= start || next >= end) next = end;
    shared_end = end;
    start = next;
  }
}

}  // namespace structure::pipeline
