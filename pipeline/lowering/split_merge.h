// The merge side of the split plan: the parts' answers (each lifted to the original shape) into
// one object, and which call a violation of the merged answer goes back to. The merged answer
// is validated against the ORIGINAL schema by the caller.
//
// Proof obligation (docs/lowering.md): every field is owned by exactly one part, a part's
// schema holds its fields' subschemas unchanged and the constraints whose fields it holds
// whole, so when no constraint spans parts, the merge of answers valid for their parts is
// valid for the original schema (modulo the narrowings of lowering). Constraints that span
// parts are listed in the plan and checked on the merge.
#pragma once

#include <string>
#include <vector>

#include "base/json.h"
#include "pipeline/lowering/split_plan.h"

namespace structure::pipeline {

// A list split by columns whose parts gave different entries (another count, or none): the
// part is re-asked with the anchor's entries (the part with the most).
struct Misaligned {
  std::string list;  // instance pointer of the list
  size_t part = 0;   // the part to re-ask
  size_t anchor = 0;
  Json anchor_entries;  // the anchor's list (its columns)
};

struct Merged {
  Json value;
  std::vector<Misaligned> misaligned;
};

// One object from the parts' answers (in part order): objects merge member by member, the
// entries of a list split by columns merge item by item when the parts' lists line up.
Merged MergeAnswers(const SplitPlan& plan, const std::vector<Json>& answers);

// The index of the part owning `instance_pointer` (one of its fields is the pointer or lies
// above it; "-" matches any index), or -1 for an object above the fields.
int OwnerOf(const SplitPlan& plan, const std::string& instance_pointer);

// Where a violation of the merged answer is re-asked: in the part that owns it, in the call of
// a constraint that spans parts, or (a violation of an object above the fields) in every part
// holding fields below it.
struct Attribution {
  enum class Kind { kParts, kCross, kNone };
  Kind kind = Kind::kNone;
  std::vector<size_t> parts;  // kParts: into plan.parts
  size_t cross = 0;           // kCross: into plan.cross
};

// `schema_path` is the validator's pointer of the failing keyword into the ORIGINAL schema,
// `missing` the property a `required`-like keyword found missing (may be empty).
Attribution Attribute(const SplitPlan& plan, const std::string& instance_path,
                      const std::string& schema_path, const std::string& missing);

// The value at `pointer` in `doc`, or nullptr.
const Json* ValueAt(const Json& doc, const std::string& pointer);

// The part of `doc` that holds exactly the fields `pointers` ("-" selects from every entry of
// a list): what a call that answers those fields said, or should say.
Json Project(const Json& doc, const std::vector<std::string>& pointers);

// Replaces the fields `pointers` of `merged` with `answer`'s (a field absent from `answer` is
// removed); the objects on the way are created as needed.
void ReplaceFields(Json& merged, const Json& answer, const std::vector<std::string>& pointers);

}  // namespace structure::pipeline
