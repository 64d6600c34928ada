// Splitting one long input into parts that each fit a call (docs/engine.md "Long documents"):
// pure functions over the one document. A part is a byte range of it (a view, never a copy),
// cut at a natural boundary — a paragraph break, else a sentence end, else a line break, else a
// space, and only as a last resort between two UTF-8 sequences — so no word and no character is
// ever cut. Consecutive parts overlap, so a fact that straddles a cut is whole in one part.
#pragma once

#include <cstddef>
#include <string_view>
#include <vector>

namespace structure::pipeline {

struct InputPart {
  size_t begin = 0;  // byte offsets of the part in the whole document
  size_t end = 0;
  // Where the part's text first becomes its own: the previous part ends at `shared_end` (the
  // overlap is [begin, shared_end); 0 for the first part).
  size_t shared_end = 0;
  std::string_view Text(std::string_view doc) const { return doc.substr(begin, end - begin); }
};

struct InputSplitOptions {
  size_t max_part_bytes = 32768;  // a part's most bytes (its cut falls in the last half)
  // The least overlap between consecutive parts, in bytes (at most a quarter of a part); the
  // overlap then grows back to the start of its paragraph when that is at most half a part
  // back, else to the boundary before it (a sentence, a line, a word) within twice the overlap.
  size_t overlap_bytes = 3277;
};

// The parts of `doc`, in document order: one part when it fits, none for an empty document.
// Every byte is in at least one part; each part is at most max_part_bytes long (a single word
// longer than that is cut between two UTF-8 sequences); each part after the first starts before
// the previous one ends (the overlap) and ends after it.
std::vector<InputPart> SplitInput(std::string_view doc, const InputSplitOptions& options);

}  // namespace structure::pipeline
