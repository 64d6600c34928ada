// Merging the answers of the parts of one long input into ONE object (docs/engine.md "Long
// documents"): a pure function over plain JSON.
//
//   - Arrays are concatenated in document order. A record that two adjacent parts both
//     extracted from their overlap is kept once: the same record when their evidence spans (in
//     the whole document) overlap, or, without evidence, when it is deep-equal and sits at the
//     seam (the last records of one part equal the first records of the next, as the overlap
//     puts them). A record stated in two places of the document is kept twice.
//   - Objects merge member by member; null and absent never overwrite a value.
//   - Scalars: the same value from several parts is one value; different values are a
//     conflict, reported with the parts that stated each, and the value taken is the first one
//     with evidence (else the first one stated).
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "structure/json.h"

namespace structure::pipeline {

struct PartAnswer {
  Json data;  // the part's answer; null: the part stated nothing
  // The part's evidence ({pointer: {"byteStart", "byteEnd", ...}}) with offsets in the WHOLE
  // document; null without evidence.
  Json evidence;
};

struct MergeConflict {
  std::string pointer;                     // in the merged answer
  std::vector<Json> values;                // each value stated, in document order
  std::vector<std::vector<size_t>> parts;  // per value, the parts (1-based) that stated it
};

struct MergedAnswer {
  Json data;      // null when no part stated anything
  Json evidence;  // the parts' evidence under the merged pointers; null when no part had any
  std::vector<MergeConflict> conflicts;
  size_t overlap_duplicates = 0;  // records dropped as the same record seen twice in an overlap
};

// Merges the parts' answers, given in document order.
MergedAnswer MergeParts(const std::vector<PartAnswer>& parts);

// [{"pointer", "values", "parts"}], the result's `conflicts`.
Json ConflictsToJson(const std::vector<MergeConflict>& conflicts);

}  // namespace structure::pipeline
