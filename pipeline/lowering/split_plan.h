// The split plan: a schema past a provider's limits asked as K strict parts. Each part owns a
// disjoint set of the instance's fields (JSON pointers), is a schema of its own within every
// limit of the profile, and carries its own lowering; the answers are merged and validated
// against the ORIGINAL schema (split_merge.h), which has the last word.
//
// Algorithm: the fields are the root's properties; a field whose part alone breaks a limit is
// replaced by its own properties (an object, or the item properties of a list of objects,
// split by columns), recursively; one that cannot be split further travels as JSON text. Fields
// that one constraint reads (dependentRequired, if/then, ...) are packed together when they fit
// in one part. The fields are packed, heaviest first, into the least loaded of K parts by
// their weight against the binding limit (the one the whole schema broke), K from the lower
// bound up to the profile's max_split_parts; every part is then lowered and checked. A
// part's `$defs` are the closure of what it refers to. Constraints whose fields end up in
// several parts are listed, each with a schema holding exactly its fields, for one re-ask.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "base/json.h"
#include "pipeline/lowering/lower.h"
#include "pipeline/lowering/measure.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/lowering/split_schema.h"
#include "structure/status.h"

namespace structure::pipeline {

struct SplitPart {
  std::vector<std::string> pointers;  // the fields it owns, in document order
  // Fields too big for any one call that cannot be split further: they travel as JSON text
  // (checked locally, like a subtree past the depth limit).
  std::vector<std::string> as_text;
  Json schema;              // the part as a schema of its own, in the original's terms
  Lowered lowered;          // strict; its need channel names the part's fields
  SchemaMeasures measures;  // of what is sent (lowered.need.schema)
};

// A constraint whose fields lie in several parts: checked on the merged answer; a violation is
// re-asked in one call on `schema`, which holds exactly the fields it reads and the constraint.
struct CrossConstraint {
  FieldConstraint constraint;
  Json schema;
};

struct SplitPlan {
  std::vector<SplitPart> parts;  // at least 2 when the schema is split; empty: see failure
  std::vector<CrossConstraint> cross;
  LimitHit forced_by;   // the limit that forced the split (kFields: max_fields_per_call)
  std::string failure;  // why there is no plan
};

// Splits `schema` for `profile`: `forced_by` is the limit the whole schema broke (its value and
// bound), which the parts are balanced against.
SplitPlan PlanSplit(const Json& schema, const Profile& profile, const LimitHit& forced_by);

// When a schema lowered whole (`whole`, Lower's result) is to be split: the limit it broke
// (a size limit; not depth, which cutting by fields cannot lower), or, strict, its field count
// past max_fields_per_call. nullopt: ask it whole.
std::optional<LimitHit> SplitTrigger(const Lowered& whole, const Profile& profile);

// A part's need field names the part's fields (PartNeedDescription); strict lowerings only.
void ScopeNeed(Lowered& lowered, const Profile& profile, const std::vector<std::string>& pointers);

// Lowering with the split: the schema whole when the profile takes it (and it has no more
// fields than max_fields_per_call), else the split plan when one exists, else the fallback
// with the limit and why no split fits in `whole.reason`.
struct Lowering {
  Lowered whole;
  SplitPlan split;
  bool is_split() const { return !split.parts.empty(); }
};
Result<Lowering> LowerOrSplit(const Json& schema, const Profile& profile);

// The description of a part's need field: what is missing, about the part's own fields only.
std::string PartNeedDescription(const std::vector<std::string>& pointers);

}  // namespace structure::pipeline
