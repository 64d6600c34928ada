// CompileSchema's keywords that hold subschemas or references: properties, items, contains,
// the schema lists, not, if, dependencies, $ref (their rows are in compile_keywords.cc).
#include "base/json_pointer.h"
#include "pipeline/validator/compiler.h"
#include "pipeline/validator/uri.h"

namespace structure::pipeline::validator_internal {

Status Compiler::CompileSchemaList(Node* node, Kind kind, std::string_view key, const Json& value) {
  if (!value.is_array() || value.size() == 0)
    return Bad(ChildPath(node, key), "must be a non-empty array of schemas");
  Keyword& k = Add(node, kind, key);
  for (const Json& sub : value.as_array()) {
    if (!sub.is_object() && !sub.is_bool()) return Bad(k.path, "must contain only schemas");
    k.subs.push_back(GetNode(&sub));
  }
  return Status::Ok();
}

Status Compiler::CompileMembers(Node* node, const Json& schema) {
  for (std::string_view key : {"properties", "patternProperties"}) {
    const Json* map = schema.find(key);
    if (map == nullptr) continue;
    if (!map->is_object()) return Bad(ChildPath(node, key), "must be an object of schemas");
    for (const auto& [name, sub] : map->as_object()) {
      if (!sub.is_object() && !sub.is_bool()) {
        std::string at = ChildPath(node, key);
        AppendPointerToken(at, name);
        return Bad(at, "must be a schema");
      }
    }
  }
  const Json* add = schema.find("additionalProperties");
  if (add && !add->is_object() && !add->is_bool())
    return Bad(ChildPath(node, "additionalProperties"), "must be a schema");
  Keyword& k = Add(node, Kind::kMembers, "properties");
  if (const Json* props = schema.find("properties")) {
    for (const auto& [name, sub] : props->as_object())
      k.named.push_back(NamedNode{name, GetNode(&sub)});
  }
  if (const Json* pats = schema.find("patternProperties")) {
    for (const auto& [pattern, sub] : pats->as_object()) {
      Result<const EcmaRegex*> re = GetRegex(pattern);
      if (!re.ok()) {
        std::string at = ChildPath(node, "patternProperties");
        AppendPointerToken(at, pattern);
        return Bad(at, re.status().message());
      }
      k.patterns.push_back(PatternNode{*re, GetNode(&sub)});
    }
  }
  if (add) {
    k.sub = GetNode(add);
    k.rest_name = "additionalProperties";
    k.rest_path = ChildPath(node, "additionalProperties");
  }
  if (k.named.size() > 8) {
    for (uint32_t i = 0; i < k.named.size(); ++i) k.named_index.emplace(k.named[i].name, i);
  }
  return Status::Ok();
}

Status Compiler::CompileItems(Node* node, const Json& schema, Draft draft) {
  auto is_schema = [](const Json* j) { return j->is_object() || j->is_bool(); };
  const Json* items = schema.find("items");
  bool tuple_items = draft != Draft::k2020_12 && items && items->is_array();
  const Json* prefix =
      draft == Draft::k2020_12 ? schema.find("prefixItems") : (tuple_items ? items : nullptr);
  const Json* rest = tuple_items ? schema.find("additionalItems") : items;
  if (draft == Draft::k2020_12 && rest && rest->is_array()) {
    // Draft 2020-12 gives `items` no array form (that is prefixItems): the keyword has no
    // effect, which is rarely what the author meant.
    STRUCTURE_RETURN_IF_ERROR(Problem(ChildPath(node, "items"),
                                      "an array has no meaning in draft 2020-12 and is ignored "
                                      "(use prefixItems, or set $schema to an older draft)"));
    rest = nullptr;
  }
  if (prefix) {
    std::string key = tuple_items ? "items" : "prefixItems";
    if (!prefix->is_array()) return Bad(ChildPath(node, key), "must be an array of schemas");
    for (const Json& sub : prefix->as_array()) {
      if (!is_schema(&sub)) return Bad(ChildPath(node, key), "must contain only schemas");
    }
  }
  if (rest && !is_schema(rest))
    return Bad(ChildPath(node, tuple_items ? "additionalItems" : "items"), "must be a schema");
  Keyword& k = Add(node, Kind::kItems, "items");
  if (prefix) {
    for (const Json& sub : prefix->as_array()) k.subs.push_back(GetNode(&sub));
  }
  if (rest) {
    k.sub = GetNode(rest);
    k.rest_name = tuple_items ? "additionalItems" : "items";
    k.rest_path = ChildPath(node, k.rest_name);
  }
  return Status::Ok();
}

// properties, patternProperties and additionalProperties make one keyword, compiled at the
// first of them.
Status Compiler::CompileMembersRule(const KeywordCall& c, Kind kind) {
  for (const Keyword& k : c.node->keywords) {
    if (k.kind == kind) return Status::Ok();
  }
  return CompileMembers(c.node, c.schema);
}

// prefixItems, items and additionalItems make one keyword, compiled at the first of them.
Status Compiler::CompileItemsRule(const KeywordCall& c, Kind kind) {
  for (const Keyword& k : c.node->keywords) {
    if (k.kind == kind) return Status::Ok();
  }
  return CompileItems(c.node, c.schema, c.loc.dialect.draft);
}

Status Compiler::CompileContains(const KeywordCall& c, Kind kind) {
  if (!IsSchema(c.value)) return Bad(ChildPath(c.node, c.key), "must be a schema");
  Keyword& k = Add(c.node, kind, c.key);
  k.sub = GetNode(&c.value);
  k.count = 1;
  Draft draft = c.loc.dialect.draft;
  if (draft == Draft::k2020_12 || draft == Draft::k2019_09) {
    if (const Json* min = c.schema.find("minContains"); min && IsNonNegativeInteger(*min)) {
      k.count = static_cast<uint64_t>(min->as_double());
    }
    if (const Json* max = c.schema.find("maxContains"); max && IsNonNegativeInteger(*max)) {
      k.count2 = max->as_double() >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(max->as_double());
    }
  }
  k.rest_path = c.node->path;
  return Status::Ok();
}

Status Compiler::CompileSchemaListRule(const KeywordCall& c, Kind kind) {
  return CompileSchemaList(c.node, kind, c.key, c.value);
}

// not and propertyNames: one subschema.
Status Compiler::CompileSubschema(const KeywordCall& c, Kind kind) {
  if (!IsSchema(c.value)) return Bad(ChildPath(c.node, c.key), "must be a schema");
  Add(c.node, kind, c.key).sub = GetNode(&c.value);
  return Status::Ok();
}

// if, with its then and else (draft 7 on).
Status Compiler::CompileIf(const KeywordCall& c, Kind kind) {
  Draft draft = c.loc.dialect.draft;
  if (draft == Draft::kDraft4 || draft == Draft::kDraft6) return Status::Ok();
  if (!IsSchema(c.value)) return Bad(ChildPath(c.node, c.key), "must be a schema");
  Keyword& k = Add(c.node, kind, c.key);
  k.sub = GetNode(&c.value);
  for (std::string_view branch : {"then", "else"}) {
    const Json* b = c.schema.find(branch);
    if (b == nullptr) continue;
    if (!IsSchema(*b)) return Bad(ChildPath(c.node, branch), "must be a schema");
    (branch == "then" ? k.then_node : k.else_node) = GetNode(b);
  }
  return Status::Ok();
}

// dependentSchemas (2019-09 on) and dependencies (any draft): a member's schemas, and in
// dependencies also its lists of required names.
Status Compiler::CompileDependencies(const KeywordCall& c, Kind kind) {
  if (c.key == "dependentSchemas" && IsLegacy(c.loc.dialect.draft)) return Status::Ok();
  if (!c.value.is_object()) return Bad(ChildPath(c.node, c.key), "must be an object");
  std::vector<NamedNode> schemas;
  std::vector<std::pair<std::string, std::vector<std::string>>> required;
  for (const auto& [name, dep] : c.value.as_object()) {
    if (IsSchema(dep)) {
      schemas.push_back(NamedNode{name, GetNode(&dep)});
    } else if (dep.is_array() && c.loc.dialect.validation_vocab) {
      std::vector<std::string> names;
      for (const Json& n : dep.as_array()) {
        if (n.is_string()) names.push_back(n.as_string());
      }
      required.emplace_back(name, std::move(names));
    }
  }
  if (!schemas.empty()) Add(c.node, kind, c.key).named = std::move(schemas);
  if (!required.empty())
    Add(c.node, Kind::kDependentRequired, c.key).dependencies = std::move(required);
  return Status::Ok();
}

// $ref, $dynamicRef and $recursiveRef.
Status Compiler::CompileRef(const KeywordCall& c, Kind kind) {
  if (!c.value.is_string()) return Bad(ChildPath(c.node, c.key), "must be a string");
  std::string resolved;
  Result<Node*> target = ResolveRef(c.loc, c.value.as_string(), &resolved);
  if (!target.ok()) {
    std::string what =
        "cannot resolve \"" + c.value.as_string() + "\" (" + target.status().message() + ")";
    if (!options_.allow_unresolved_refs) {
      return Bad(ChildPath(c.node, c.key),
                 what + " (--allow-unresolved-refs accepts it as any value)");
    }
    out_->warnings.push_back(
        At(ChildPath(c.node, c.key), what + "; accepted as any value (allowed)"));
    return Status::Ok();
  }
  Keyword& k = Add(c.node, kind, c.key);
  k.sub = *target;
  if (kind == Kind::kDynamicRef) {
    std::string fragment = SplitFragment(resolved).second;
    Result<const Json*> json = index_.Resolve(resolved);
    const Json* anchor =
        json.ok() && (*json)->is_object() ? (*json)->find("$dynamicAnchor") : nullptr;
    if (!fragment.empty() && fragment[0] != '/' && anchor && anchor->is_string() &&
        anchor->as_string() == fragment) {
      k.dynamic = true;
      k.anchor = fragment;
    }
  }
  return Status::Ok();
}

}  // namespace structure::pipeline::validator_internal
