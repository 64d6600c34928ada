// Internal: the compiled form of a schema. A Node is one schema object; its keywords are kept
// in evaluation order (document order, with the annotation-dependent ones last). Nodes live
// in a deque owned by CompiledSchema and point at each other ($ref cycles are fine).
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/json.h"
#include "pipeline/validator/formats.h"
#include "pipeline/validator/regex.h"
#include "pipeline/validator/validator.h"

namespace structure::pipeline::validator_internal {

enum TypeBit : uint8_t {
  kTypeNull = 1,
  kTypeBoolean = 2,
  kTypeObject = 4,
  kTypeArray = 8,
  kTypeNumber = 16,
  kTypeString = 32,
  kTypeInteger = 64,
};

enum class Kind : uint8_t {
  // kEnum .. kFormat act on a scalar's value and stay contiguous (Evaluator::IsScalarOp).
  kType,
  kConst,
  kEnum,
  kMinimum,
  kMaximum,
  kExclusiveMinimum,
  kExclusiveMaximum,
  kMultipleOf,
  kMinLength,
  kMaxLength,
  kPattern,
  kFormat,
  kMinItems,
  kMaxItems,
  kUniqueItems,
  kItems,
  kContains,
  kUnevaluatedItems,
  kMinProperties,
  kMaxProperties,
  kRequired,
  kDependentRequired,
  kDependentSchemas,
  kMembers,
  kPropertyNames,
  kUnevaluatedProperties,
  kAllOf,
  kAnyOf,
  kOneOf,
  kNot,
  kIf,
  kRef,
  kDynamicRef,
};

struct Node;

struct Resource {
  std::string uri;
  std::unordered_map<std::string, Node*> dynamic_anchors;
};

struct NamedNode {
  std::string name;
  Node* node = nullptr;
};

struct PatternNode {
  const EcmaRegex* regex = nullptr;
  Node* node = nullptr;
};

// Instance classes a node's keyword plan is split by (int64 and uint64 are both integers).
enum InstanceClass : uint8_t {
  kClassNull,
  kClassBool,
  kClassObject,
  kClassArray,
  kClassInt64,
  kClassUint64,
  kClassDouble,
  kClassString,
  kClassCount,
};

// One keyword. Fields read on the valid path come first; names, paths and values used only to
// build errors follow.
struct Keyword {
  Kind kind;
  uint8_t types = 0;
  bool dynamic = false;         // $dynamicRef whose target is looked up in the dynamic scope
  bool strings_only = false;    // enum: every value a string (fast compare on names)
  bool numbers_only = false;    // enum: every value a number exactly representable as double
  bool predict_names = false;   // members: names are unique, so the next name may be tried first
  bool required_first = false;  // members: the fused `required` comes before it in the schema
  bool integer_has_no_fraction = false;  // type: draft 4's "integer", which 1.0 is not
  Format format = Format::kUnknown;
  double number = 0;
  uint64_t count = 0;
  uint64_t count2 = UINT64_MAX;  // maxContains
  Node* sub = nullptr;           // items rest / contains / not / if / additionalProperties ...
  const EcmaRegex* regex = nullptr;
  // members: a sibling `required` whose names are all among `named` (bits over named), checked
  // here instead of in a separate pass over the object; `required` reports when one is missing.
  uint64_t required_mask = 0;
  const Keyword* required = nullptr;
  size_t named_count = 0;             // named.size(), kept to spare a division per lookup
  std::vector<Node*> subs;            // allOf/anyOf/oneOf/prefixItems
  std::vector<NamedNode> named;       // properties / dependentSchemas
  std::vector<PatternNode> patterns;  // patternProperties
  std::vector<std::string> names;     // required / enum of strings
  std::vector<double> numbers;        // enum of numbers
  Node* then_node = nullptr;
  Node* else_node = nullptr;
  std::unordered_map<std::string_view, uint32_t> named_index;  // for many properties
  std::string name;       // the keyword as written ("maximum", "additionalProperties" ...)
  std::string path;       // schema path of the keyword
  std::string rest_name;  // "items" / "additionalItems" / "additionalProperties"
  std::string rest_path;
  std::vector<std::pair<std::string, std::vector<std::string>>> dependencies;
  Json value;                // const
  std::vector<Json> values;  // enum
  std::string anchor;        // $dynamicRef anchor name
};

// A keyword in a node's plan: the few fields the valid path of a scalar keyword reads, kept
// small and contiguous per node; everything else is in *keyword.
struct Op {
  Kind kind;
  uint8_t types = 0;
  bool strings_only = false;
  bool numbers_only = false;
  Format format = Format::kUnknown;
  double number = 0;
  uint64_t count = 0;
  const EcmaRegex* regex = nullptr;
  const Keyword* keyword = nullptr;
};

struct Node {
  bool direct = false;    // not false, no own annotations, no dynamic scope: Eval runs the plan
  bool is_false = false;  // the false schema: nothing validates
  bool has_unevaluated = false;  // owns unevaluatedProperties/Items: needs its own annotations
  // The keywords that can act on an instance of class c: plan[plan_begin[c], plan_begin[c+1]),
  // in evaluation order (see validator_plan.h). plan points into CompiledSchema::ops.
  uint32_t plan_begin[kClassCount + 1] = {};
  const Op* plan = nullptr;
  Resource* resource = nullptr;
  std::string path;  // schema path of this node
  std::vector<Keyword> keywords;
};

struct CompiledSchema {
  ValidatorOptions options;
  std::deque<Json> documents;  // the root schema, resources and built-in meta-schemas
  std::deque<Node> nodes;
  std::vector<Op> ops;  // every node's plan, in node order (siblings' plans are neighbours)
  std::deque<Resource> resources;
  std::vector<std::unique_ptr<EcmaRegex>> regexes;
  std::vector<std::string> warnings;
  const Node* root = nullptr;
  bool dynamic_scope = false;  // some $dynamicRef needs the resources on the evaluation path
};

}  // namespace structure::pipeline::validator_internal
