// The schema side of the split plan: which fields a schema has (the units a part can own), the
// schema of a part that holds a given set of fields, and the constraints that tie fields
// together. Pure; the packing is in split_plan.cc.
//
// Fields are named by instance pointers. The token "-" stands for every item of an array: a
// list of objects too big for one call is split by columns ("/tracks/-/title" and
// "/tracks/-/artist" in two parts), whose answers are merged item by item (split_merge.h).
#pragma once

#include <string>
#include <vector>

#include "base/json.h"

namespace structure::pipeline {

// The pointer token for "every item of this array".
inline constexpr const char kEachItem[] = "-";

// A constraint of an object (the root, or an object that is split deeper) that reads more
// than one of its fields: `dependentRequired`, `if`/`then`/`else`, `dependentSchemas`,
// `unevaluatedProperties`, a composition, or `required` of an object whose fields sit in
// several parts.
struct FieldConstraint {
  std::string at;       // schema pointer of the keyword in the original ("/dependentRequired")
  std::string keyword;  // "dependentRequired", "if", "required", ...
  std::string object;   // instance pointer of the object it constrains
  std::vector<std::string> pointers;  // instance pointers of the fields it reads
  // `required` of an object split across parts: it spans parts whenever the object does, since
  // each part decides alone whether to give the object.
  bool spans_object = false;
};

class PartSchemas {
 public:
  // `root` must outlive this object. A root that cannot be split has no fields (Fields("") is
  // empty) and says why in why_not().
  explicit PartSchemas(const Json& root);

  // The pointers of the fields below `pointer` ("" for the root), in document order: the
  // properties of an object, or the item properties of a list of objects; empty when it cannot
  // be split (a union, a map, a nullable object, a list inside a list, ...).
  std::vector<std::string> Fields(const std::string& pointer) const;
  const std::string& why_not() const { return why_not_; }

  // The schema of a part that holds exactly `pointers` (fields as Fields() names them; a
  // pointer holds everything below it): the objects and lists on the way with only the
  // selected properties, `required` cut to them, closed; the constraints whose fields all lie
  // within the selection; the definitions the selection refers to, and nothing else.
  // Fields in `as_text` travel as JSON text (lower.h, kJsonTextKeyword).
  Json Build(const std::vector<std::string>& pointers,
             const std::vector<std::string>& as_text = {}) const;

  // The constraints of the objects above `pointers` (their first appearance order).
  std::vector<FieldConstraint> Constraints(const std::vector<std::string>& pointers) const;

  // Those of Constraints() that read fields of more than one of `groups` (each group: the
  // pointers of one part).
  std::vector<FieldConstraint> CrossConstraints(
      const std::vector<std::vector<std::string>>& groups) const;

 private:
  struct Selection;
  const Json* NodeAt(const std::string& pointer, std::string* schema_path) const;
  Json BuildNode(const Json& s, const Selection& sel) const;
  Json AsText(Json sub) const;
  Json BuildObject(const Json& s, const Selection& sel) const;
  std::vector<FieldConstraint> ConstraintsOf(const Json& s, const std::string& at,
                                             const std::string& object) const;

  const Json& root_;
  Json merged_root_;  // the root with its allOf folded in, when it has one
  const Json* view_;  // what is split: the root (its $ref followed) or merged_root_
  std::string why_not_;
};

// Splits a JSON pointer into its unescaped tokens ("/a~1b/c" -> {"a/b", "c"}).
std::vector<std::string> PointerTokens(const std::string& pointer);

// True when `pointer` is `ancestor` or lies below it (token by token, literally).
bool PointerWithin(const std::string& pointer, const std::string& ancestor);

// The same for an instance pointer against a field pointer, where the field's "-" token
// matches any array index ("/tracks/3/title" lies within "/tracks/-").
bool InstanceWithin(const std::string& instance, const std::string& field);

}  // namespace structure::pipeline
