// Internals of Lower shared by its .cc files: the rewriting context.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "base/json.h"
#include "pipeline/lowering/lift_plan.h"
#include "pipeline/lowering/lower.h"
#include "pipeline/lowering/profile.h"

namespace structure::pipeline::detail {

// Work bounds of one lowering attempt, in nodes visited (inlining multiplies work, and a bigger
// result helps nobody).
constexpr size_t kMaxWork = 100000;
constexpr size_t kMaxInlineWork = 25000;

// A lowered subschema: its provider form and the index of its lift plan node (-1: identity).
// `never` marks a subschema no value satisfies (false, or an empty intersection).
struct Out {
  Json schema;
  int plan = -1;
  bool never = false;
};

// How hard Lower tries: the second attempt inlines every $ref, carries recursion below its first
// repetition and any object/array nested deeper than cut_depth as JSON text (sound: the text is
// decoded by Lift and checked locally).
struct Mode {
  bool inline_refs = false;
  size_t cut_depth = 0;  // 0: no cut
  size_t enum_cap = 0;   // 0: profile limits only; else larger enums are checked locally
  // This many optional properties (the first met) become required + nullable, where the
  // optional count is past its limit and the union count is not.
  size_t optional_as_null = 0;
};

class Lowerer {
 public:
  Lowerer(const Json& root, const Profile& profile, Mode mode = {})
      : root_(root), p_(profile), mode_(mode) {}

  // Lowers the subschema s found at `path` (a pointer into the original schema).
  Out Node(const Json& s, const std::string& path, int depth);

  const Profile& profile() const { return p_; }
  std::vector<LiftNode>& plan() { return plan_; }
  std::vector<Dropped>& dropped() { return dropped_; }
  Json& defs() { return defs_; }
  const std::string& fatal() const { return fatal_; }
  bool recursion_fatal() const { return recursion_fatal_; }
  void Fatal(const std::string& why) {
    if (fatal_.empty()) fatal_ = why;
  }

 private:
  Out Ref(const Json& s, const std::string& path, int depth);
  Out AllOf(const Json& s, const std::string& path, int depth);
  Out Union(const Json& s, const std::string& path, int depth);
  Out Typed(const Json& s, const std::string& type, const std::string& path, int depth);
  // Typed's parts: enum/const kept, narrowed to the type or dropped (false: no value of the
  // type is allowed), and the string and number keywords kept or dropped.
  bool LowerValues(const Json& s, const std::string& type, const std::string& path, Json* out);
  void LowerScalarKeywords(const Json& s, const std::string& type, const std::string& path,
                           Json* out);
  Out Object(const Json& s, const std::string& path, int depth, Json out);
  Out Map(const Json& s, const std::string& path, int depth, Json out);
  Out Array(const Json& s, const std::string& path, int depth, Json out);
  Out Any(const Json& s, const std::string& path);
  Out Nullable(Out o);
  // The subschema travels as JSON text (decoded by Lift, validated locally).
  Out Opaque(const Json& s, const std::string& path, const char* why);
  // Follows a top-level $ref (merging sibling keywords), bounded. Returns s itself when it has
  // no $ref, else a value kept in storage.
  const Json& Deref(const Json& s, Json& storage);
  void Drop(const std::string& path, const std::string& keyword, const Json& value, Json* node);
  bool Accepts(const std::string& keyword) const { return p_.keywords.count(keyword) > 0; }
  int AddPlan(LiftNode node);

  const Json& root_;
  const Profile& p_;
  Mode mode_;
  size_t nest_ = 0;  // objects/arrays above the subschema being lowered
  std::vector<LiftNode> plan_;
  std::vector<Dropped> dropped_;
  Json defs_ = Json::MakeObject();
  struct Def {
    std::string name;
    int slot;
    bool done;
  };
  std::map<const Json*, Def> defs_by_target_;
  std::set<std::string> def_names_;
  std::vector<const Json*> stack_;  // ref targets being lowered (recursion detection)
  std::string fatal_;
  bool recursion_fatal_ = false;
  size_t recursion_cuts_ = 0;
  size_t optional_as_null_ = 0;  // optional properties made required + nullable so far
  std::map<std::pair<const Json*, size_t>, std::pair<Out, size_t>>
      inline_memo_;  // -> (result, work)
  size_t work_ = 0;
};

// The part of a provider branch schema that picks a union branch (types, enum/const, property
// names, required, closedness, $ref, nested anyOf), without the subschemas below it.
Json BranchShape(const Json& schema);

// Keywords that constrain only values of one JSON type.
bool AppliesToType(const std::string& keyword, const std::string& type);

}  // namespace structure::pipeline::detail
