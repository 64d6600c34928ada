#include "pipeline/validator/plan.h"

#include <string_view>
#include <unordered_set>

namespace structure::pipeline::validator_internal {
namespace {

bool IsStaticRef(const Keyword& k) {
  return k.kind == Kind::kRef || (k.kind == Kind::kDynamicRef && !k.dynamic);
}

bool IsRefOnly(const Node* n) {
  return !n->is_false && !n->has_unevaluated && n->keywords.size() == 1 &&
         IsStaticRef(n->keywords[0]) && n->keywords[0].sub != nullptr;
}

// The node an instance-consuming edge of a node in `resource` really evaluates: `$ref`-only
// nodes of the same resource are skipped. Instance nesting bounds these edges (every step
// descends into a member or item), so the $ref chain bound is not needed on them.
Node* SkipRefs(Node* node, const Resource* resource) {
  for (int hops = 0; hops < 64 && IsRefOnly(node) && node->resource == resource; ++hops) {
    Node* target = node->keywords[0].sub;
    if (target->is_false) break;  // keeps the "schema is false" error at its own location
    node = target;
  }
  return node;
}

void SkipRefsOnEdges(Node* node) {
  const Resource* r = node->resource;
  for (Keyword& k : node->keywords) {
    switch (k.kind) {
      case Kind::kItems:
        for (Node*& sub : k.subs) sub = SkipRefs(sub, r);
        break;
      case Kind::kMembers:
        for (NamedNode& n : k.named) n.node = SkipRefs(n.node, r);
        for (PatternNode& p : k.patterns) p.node = SkipRefs(p.node, r);
        break;
      case Kind::kContains:
      case Kind::kPropertyNames:
      case Kind::kUnevaluatedItems:
      case Kind::kUnevaluatedProperties:
        break;
      default:
        continue;
    }
    if (k.sub != nullptr) k.sub = SkipRefs(k.sub, r);
  }
}

uint8_t TypeBit(InstanceClass c) {
  switch (c) {
    case kClassNull:
      return kTypeNull;
    case kClassBool:
      return kTypeBoolean;
    case kClassObject:
      return kTypeObject;
    case kClassArray:
      return kTypeArray;
    case kClassInt64:
    case kClassUint64:
      return kTypeNumber | kTypeInteger;
    case kClassDouble:
      return kTypeNumber;  // an integral double is decided at run time
    case kClassString:
      return kTypeString;
    case kClassCount:
      break;
  }
  return 0;
}

// Whether k can fail (or annotate) for an instance of class c.
bool Acts(const Keyword& k, InstanceClass c) {
  bool number = c == kClassInt64 || c == kClassUint64 || c == kClassDouble;
  switch (k.kind) {
    case Kind::kType:
      return (k.types & TypeBit(c)) == 0;
    case Kind::kMinimum:
    case Kind::kMaximum:
    case Kind::kExclusiveMinimum:
    case Kind::kExclusiveMaximum:
    case Kind::kMultipleOf:
      return number;
    case Kind::kMinLength:
    case Kind::kMaxLength:
    case Kind::kPattern:
    case Kind::kFormat:
      return c == kClassString;
    case Kind::kMinItems:
    case Kind::kMaxItems:
    case Kind::kUniqueItems:
    case Kind::kItems:
    case Kind::kContains:
    case Kind::kUnevaluatedItems:
      return c == kClassArray;
    case Kind::kMinProperties:
    case Kind::kMaxProperties:
    case Kind::kRequired:
    case Kind::kDependentRequired:
    case Kind::kDependentSchemas:
    case Kind::kMembers:
    case Kind::kPropertyNames:
    case Kind::kUnevaluatedProperties:
      return c == kClassObject;
    default:
      return true;
  }
}

// Lets `properties` check a `required` right before or after it during its own pass over the
// members, when every required name is one of its first 64 properties.
bool FuseRequired(Keyword* members, const Keyword* required, bool required_first) {
  if (members->named.size() > 64 || required->names.empty()) return false;
  uint64_t mask = 0;
  for (const std::string& name : required->names) {
    size_t i = 0;
    while (i < members->named.size() && members->named[i].name != name) ++i;
    if (i == members->named.size()) return false;
    mask |= uint64_t{1} << i;
  }
  members->required_mask = mask;
  members->required = required;
  members->required_first = required_first;
  return true;
}

// Counts k's properties and allows predicting the next one when their names are unique.
void IndexNames(Keyword* k) {
  k->named_count = k->named.size();
  std::unordered_set<std::string_view> seen;
  seen.reserve(k->named.size());
  for (const NamedNode& n : k->named) {
    if (!seen.insert(n.name).second) return;
  }
  k->predict_names = !k->named.empty();
}

// Appends node's plan to ops; node->plan_begin is relative to the node's first op.
void BuildPlan(Node* node, std::vector<Op>* ops) {
  size_t base = ops->size();
  const Keyword* fused = nullptr;
  for (size_t i = 0; i + 1 < node->keywords.size(); ++i) {
    Keyword& a = node->keywords[i];
    Keyword& b = node->keywords[i + 1];
    if (a.kind == Kind::kRequired && b.kind == Kind::kMembers && FuseRequired(&b, &a, true))
      fused = &a;
    if (a.kind == Kind::kMembers && b.kind == Kind::kRequired && FuseRequired(&a, &b, false))
      fused = &b;
    if (fused != nullptr) break;
  }
  for (Keyword& k : node->keywords) {
    if (k.kind == Kind::kMembers) IndexNames(&k);
  }
  for (int c = 0; c < kClassCount; ++c) {
    node->plan_begin[c] = static_cast<uint32_t>(ops->size() - base);
    for (const Keyword& k : node->keywords) {
      if (&k == fused || !Acts(k, static_cast<InstanceClass>(c))) continue;
      ops->push_back(Op{k.kind, k.types, k.strings_only, k.numbers_only, k.format, k.number,
                        k.count, k.regex, &k});
    }
  }
  node->plan_begin[kClassCount] = static_cast<uint32_t>(ops->size() - base);
}

}  // namespace

void PlanSchema(CompiledSchema* schema) {
  for (Node& node : schema->nodes) {
    SkipRefsOnEdges(&node);
    for (const Keyword& k : node.keywords) {
      if (k.dynamic) schema->dynamic_scope = true;
    }
  }
  schema->ops.clear();
  std::vector<size_t> starts;
  for (Node& node : schema->nodes) {
    starts.push_back(schema->ops.size());
    BuildPlan(&node, &schema->ops);
    node.direct = !node.is_false && !node.has_unevaluated && !schema->dynamic_scope;
  }
  for (size_t i = 0; i < schema->nodes.size(); ++i)
    schema->nodes[i].plan = schema->ops.data() + starts[i];
}

}  // namespace structure::pipeline::validator_internal
