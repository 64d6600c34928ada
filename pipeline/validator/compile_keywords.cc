// CompileSchema's keywords: each keyword of a schema object checked and turned into a Keyword of
// its Node (compile.cc walks the schemas and calls CompileKeyword for each member).
#include <cmath>

#include "base/json_pointer.h"
#include "pipeline/validator/compiler.h"
#include "pipeline/validator/uri.h"

namespace structure::pipeline::validator_internal {
namespace {

bool IsNonNegativeInteger(const Json& j) {
  return j.is_number() && j.is_integral() && j.as_double() >= 0;
}

}  // namespace

Status Compiler::CompileNumber(Node* node, Kind kind, std::string_view key, const Json& value) {
  if (!value.is_number()) return Bad(ChildPath(node, key), "must be a number");
  if (kind == Kind::kMultipleOf && value.as_double() <= 0) {
    return Bad(ChildPath(node, key), "must be greater than 0");
  }
  Keyword& k = Add(node, kind, key);
  k.number = value.as_double();
  k.value = value;  // exact comparison when the doubles are equal (big integers)
  return Status::Ok();
}

Status Compiler::CompileCount(Node* node, Kind kind, std::string_view key, const Json& value) {
  if (!IsNonNegativeInteger(value))
    return Bad(ChildPath(node, key), "must be a non-negative integer");
  double v = value.as_double();
  Add(node, kind, key).count = v >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(v);
  return Status::Ok();
}

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

Status Compiler::CompileKeyword(Node* node, const Json& schema, const Location& loc,
                                const std::string& key, const Json& value) {
  const Dialect& d = loc.dialect;
  bool legacy = IsLegacy(d.draft);
  bool validation = d.validation_vocab;
  auto is_schema = [](const Json& j) { return j.is_object() || j.is_bool(); };
  if (validation) {
    if (key == "type") {
      uint8_t mask = 0;
      auto add_type = [&](const Json& t) {
        if (!t.is_string()) return false;
        const std::string& n = t.as_string();
        if (n == "null")
          mask |= kTypeNull;
        else if (n == "boolean")
          mask |= kTypeBoolean;
        else if (n == "object")
          mask |= kTypeObject;
        else if (n == "array")
          mask |= kTypeArray;
        else if (n == "number")
          mask |= kTypeNumber;
        else if (n == "string")
          mask |= kTypeString;
        else if (n == "integer")
          mask |= kTypeInteger;
        else
          return false;
        return true;
      };
      bool ok = true;
      if (value.is_array()) {
        for (const Json& t : value.as_array()) ok = add_type(t) && ok;
      } else {
        ok = add_type(value);
      }
      if (!ok) {
        return Bad(ChildPath(node, key),
                   "must be a type name (null, boolean, object, array, number, string, integer) "
                   "or an array of them");
      }
      if (mask == 0) return Status::Ok();
      Keyword& type = Add(node, Kind::kType, key);
      type.types = mask;
      // Draft 4 (section 3.5 of its validation spec) defines an integer as a number without a
      // fraction part, as written: 1.0 is not one (the suite's optional zeroTerminatedFloats).
      // Later drafts define it by value.
      type.integer_has_no_fraction = d.draft == Draft::kDraft4;
      return Status::Ok();
    }
    if (key == "enum") {
      if (!value.is_array()) return Bad(ChildPath(node, key), "must be an array");
      Keyword& k = Add(node, Kind::kEnum, key);
      k.values = value.as_array();
      k.strings_only = true;
      for (const Json& v : k.values) {
        if (!v.is_string()) k.strings_only = false;
      }
      if (k.strings_only) {
        for (const Json& v : k.values) k.names.push_back(v.as_string());
      }
      k.numbers_only = !k.values.empty();
      for (const Json& v : k.values) {
        // Doubles compare exactly only below 2^53; larger integers go through the exact path.
        bool exact = v.is_number() && v.big_integer().empty() &&
                     std::fabs(v.as_double()) < 9007199254740992.0;
        if (!exact) k.numbers_only = false;
      }
      if (k.numbers_only) {
        for (const Json& v : k.values) k.numbers.push_back(v.as_double());
      }
      return Status::Ok();
    }
    if (key == "const" && d.draft != Draft::kDraft4) {
      Add(node, Kind::kConst, key).value = value;
      return Status::Ok();
    }
    if (key == "minimum" || key == "maximum") {
      bool exclusive = false;
      if (d.draft == Draft::kDraft4) {
        const Json* flag = schema.find(key == "minimum" ? "exclusiveMinimum" : "exclusiveMaximum");
        exclusive = flag && flag->is_bool() && flag->as_bool();
      }
      Kind kind = key == "minimum" ? (exclusive ? Kind::kExclusiveMinimum : Kind::kMinimum)
                                   : (exclusive ? Kind::kExclusiveMaximum : Kind::kMaximum);
      return CompileNumber(node, kind, key, value);
    }
    if (key == "exclusiveMinimum" || key == "exclusiveMaximum") {
      if (d.draft == Draft::kDraft4) return Status::Ok();
      return CompileNumber(
          node, key == "exclusiveMinimum" ? Kind::kExclusiveMinimum : Kind::kExclusiveMaximum, key,
          value);
    }
    if (key == "multipleOf") return CompileNumber(node, Kind::kMultipleOf, key, value);
    if (key == "minLength") return CompileCount(node, Kind::kMinLength, key, value);
    if (key == "maxLength") return CompileCount(node, Kind::kMaxLength, key, value);
    if (key == "minItems") return CompileCount(node, Kind::kMinItems, key, value);
    if (key == "maxItems") return CompileCount(node, Kind::kMaxItems, key, value);
    if (key == "minProperties") return CompileCount(node, Kind::kMinProperties, key, value);
    if (key == "maxProperties") return CompileCount(node, Kind::kMaxProperties, key, value);
    if (key == "uniqueItems") {
      if (!value.is_bool()) return Bad(ChildPath(node, key), "must be a boolean");
      if (value.as_bool()) Add(node, Kind::kUniqueItems, key);
      return Status::Ok();
    }
    if (key == "pattern") {
      if (!value.is_string()) return Bad(ChildPath(node, key), "must be a string");
      Result<const EcmaRegex*> re = GetRegex(value.as_string());
      if (!re.ok()) return Bad(ChildPath(node, key), re.status().message());
      Add(node, Kind::kPattern, key).regex = *re;
      return Status::Ok();
    }
    if (key == "required") {
      if (!value.is_array()) {
        if (value.is_bool()) return Status::Ok();  // draft-03 style, meaningless here
        return Bad(ChildPath(node, key), "must be an array of strings");
      }
      Keyword& k = Add(node, Kind::kRequired, key);
      for (const Json& n : value.as_array()) {
        if (n.is_string()) k.names.push_back(n.as_string());
      }
      if (k.names.empty()) node->keywords.pop_back();
      return Status::Ok();
    }
    if (key == "dependentRequired" && !legacy) {
      if (!value.is_object()) return Bad(ChildPath(node, key), "must be an object");
      Keyword& k = Add(node, Kind::kDependentRequired, key);
      for (const auto& [name, list] : value.as_object()) {
        std::vector<std::string> names;
        if (list.is_array()) {
          for (const Json& n : list.as_array()) {
            if (n.is_string()) names.push_back(n.as_string());
          }
        }
        k.dependencies.emplace_back(name, std::move(names));
      }
      return Status::Ok();
    }
  }
  if (key == "format") {
    if (!value.is_string()) return Bad(ChildPath(node, key), "must be a string");
    Format f = FormatFromName(value.as_string());
    if (f != Format::kUnknown && (options_.assert_format || d.format_assertion)) {
      Keyword& k = Add(node, Kind::kFormat, key);
      k.format = f;
      k.names.push_back(value.as_string());
    }
    return Status::Ok();
  }
  if (key == "properties" || key == "patternProperties" || key == "additionalProperties") {
    for (const Keyword& k : node->keywords) {
      if (k.kind == Kind::kMembers) return Status::Ok();
    }
    return CompileMembers(node, schema);
  }
  if (key == "prefixItems" || key == "items" || key == "additionalItems") {
    for (const Keyword& k : node->keywords) {
      if (k.kind == Kind::kItems) return Status::Ok();
    }
    return CompileItems(node, schema, d.draft);
  }
  if (key == "contains") {
    if (!is_schema(value)) return Bad(ChildPath(node, key), "must be a schema");
    Keyword& k = Add(node, Kind::kContains, key);
    k.sub = GetNode(&value);
    k.count = 1;
    if (d.draft == Draft::k2020_12 || d.draft == Draft::k2019_09) {
      if (const Json* min = schema.find("minContains"); min && IsNonNegativeInteger(*min)) {
        k.count = static_cast<uint64_t>(min->as_double());
      }
      if (const Json* max = schema.find("maxContains"); max && IsNonNegativeInteger(*max)) {
        k.count2 =
            max->as_double() >= 1.8e19 ? UINT64_MAX : static_cast<uint64_t>(max->as_double());
      }
    }
    k.rest_path = node->path;
    return Status::Ok();
  }
  if (key == "allOf") return CompileSchemaList(node, Kind::kAllOf, key, value);
  if (key == "anyOf") return CompileSchemaList(node, Kind::kAnyOf, key, value);
  if (key == "oneOf") return CompileSchemaList(node, Kind::kOneOf, key, value);
  if (key == "not" || key == "propertyNames") {
    if (!is_schema(value)) return Bad(ChildPath(node, key), "must be a schema");
    Add(node, key == "not" ? Kind::kNot : Kind::kPropertyNames, key).sub = GetNode(&value);
    return Status::Ok();
  }
  if (key == "if" && d.draft != Draft::kDraft4 && d.draft != Draft::kDraft6) {
    if (!is_schema(value)) return Bad(ChildPath(node, key), "must be a schema");
    Keyword& k = Add(node, Kind::kIf, key);
    k.sub = GetNode(&value);
    for (std::string_view branch : {"then", "else"}) {
      const Json* b = schema.find(branch);
      if (b == nullptr) continue;
      if (!is_schema(*b)) return Bad(ChildPath(node, branch), "must be a schema");
      (branch == "then" ? k.then_node : k.else_node) = GetNode(b);
    }
    return Status::Ok();
  }
  if ((key == "dependentSchemas" && !legacy) || key == "dependencies") {
    if (!value.is_object()) return Bad(ChildPath(node, key), "must be an object");
    std::vector<NamedNode> schemas;
    std::vector<std::pair<std::string, std::vector<std::string>>> required;
    for (const auto& [name, dep] : value.as_object()) {
      if (is_schema(dep)) {
        schemas.push_back(NamedNode{name, GetNode(&dep)});
      } else if (dep.is_array() && validation) {
        std::vector<std::string> names;
        for (const Json& n : dep.as_array()) {
          if (n.is_string()) names.push_back(n.as_string());
        }
        required.emplace_back(name, std::move(names));
      }
    }
    if (!schemas.empty()) Add(node, Kind::kDependentSchemas, key).named = std::move(schemas);
    if (!required.empty())
      Add(node, Kind::kDependentRequired, key).dependencies = std::move(required);
    return Status::Ok();
  }
  if (key == "$ref" || key == "$dynamicRef" || key == "$recursiveRef") {
    if (!value.is_string()) return Bad(ChildPath(node, key), "must be a string");
    std::string resolved;
    Result<Node*> target = ResolveRef(loc, value.as_string(), &resolved);
    if (!target.ok()) {
      std::string what =
          "cannot resolve \"" + value.as_string() + "\" (" + target.status().message() + ")";
      if (!options_.allow_unresolved_refs) {
        return Bad(ChildPath(node, key),
                   what + " (--allow-unresolved-refs accepts it as any value)");
      }
      out_->warnings.push_back(
          At(ChildPath(node, key), what + "; accepted as any value (allowed)"));
      return Status::Ok();
    }
    Keyword& k = Add(node, key == "$dynamicRef" ? Kind::kDynamicRef : Kind::kRef, key);
    k.sub = *target;
    if (key == "$dynamicRef") {
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
  return Status::Ok();  // annotations and unknown keywords
}

}  // namespace structure::pipeline::validator_internal
