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
#include "pipeline/validator.h"
#include "pipeline/validator_formats.h"
#include "pipeline/validator_regex.h"

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
  kType, kConst, kEnum,
  kMinimum, kMaximum, kExclusiveMinimum, kExclusiveMaximum, kMultipleOf,
  kMinLength, kMaxLength, kPattern, kFormat,
  kMinItems, kMaxItems, kUniqueItems, kItems, kContains, kUnevaluatedItems,
  kMinProperties, kMaxProperties, kRequired, kDependentRequired, kDependentSchemas,
  kMembers, kPropertyNames, kUnevaluatedProperties,
  kAllOf, kAnyOf, kOneOf, kNot, kIf, kRef, kDynamicRef,
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

struct Keyword {
  Kind kind;
  std::string name;  // the keyword as written ("maximum", "additionalProperties" ...)
  std::string path;  // schema path of the keyword
  uint8_t types = 0;
  double number = 0;
  uint64_t count = 0;
  uint64_t count2 = UINT64_MAX;  // maxContains
  Node* sub = nullptr;           // items rest / contains / not / if / additionalProperties ...
  Node* then_node = nullptr;
  Node* else_node = nullptr;
  std::string rest_name;  // "items" / "additionalItems" / "additionalProperties"
  std::string rest_path;
  std::vector<Node*> subs;           // allOf/anyOf/oneOf/prefixItems
  std::vector<NamedNode> named;      // properties / dependentSchemas
  std::unordered_map<std::string_view, uint32_t> named_index;  // for many properties
  std::vector<PatternNode> patterns;  // patternProperties
  std::vector<std::string> names;    // required / enum of strings
  std::vector<std::pair<std::string, std::vector<std::string>>> dependencies;
  const EcmaRegex* regex = nullptr;
  Json value;                // const
  std::vector<Json> values;  // enum
  bool strings_only = false;  // enum: every value a string (fast compare on names)
  bool numbers_only = false;  // enum: every value a number exactly representable as double
  std::vector<double> numbers;
  Format format = Format::kUnknown;
  std::string anchor;  // $dynamicRef anchor name
  bool dynamic = false;
  bool contains_min_zero = false;
};

struct Node {
  bool is_false = false;         // the false schema: nothing validates
  bool has_unevaluated = false;  // owns unevaluatedProperties/Items: needs its own annotations
  Resource* resource = nullptr;
  std::string path;  // schema path of this node
  std::vector<Keyword> keywords;
};

struct CompiledSchema {
  ValidatorOptions options;
  std::deque<Json> documents;  // the root schema, resources and built-in meta-schemas
  std::deque<Node> nodes;
  std::deque<Resource> resources;
  std::vector<std::unique_ptr<EcmaRegex>> regexes;
  std::vector<std::string> warnings;
  const Node* root = nullptr;
};

}  // namespace structure::pipeline::validator_internal
