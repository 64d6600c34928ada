// CompileSchema's keywords: the keyword table and the keywords of one value (types, values,
// bounds, counts, strings, required names, formats). compile.cc walks the schemas and calls
// CompileKeyword for each member; compile_applicators.cc compiles the keywords that hold
// subschemas or references.
#include <cmath>
#include <unordered_map>

#include "pipeline/validator/compiler.h"

namespace structure::pipeline::validator_internal {
namespace {

uint8_t TypeBitOf(const std::string& n) {
  if (n == "null") return kTypeNull;
  if (n == "boolean") return kTypeBoolean;
  if (n == "object") return kTypeObject;
  if (n == "array") return kTypeArray;
  if (n == "number") return kTypeNumber;
  if (n == "string") return kTypeString;
  if (n == "integer") return kTypeInteger;
  return 0;
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

// The keyword table: each keyword's vocabulary, its Kind where one row serves several, and the
// function that compiles it. A keyword of no row (an annotation, an unknown keyword), or of
// the validation vocabulary when the dialect leaves it out, compiles to nothing.
const Compiler::KeywordRule* Compiler::FindRule(std::string_view key) {
  static const std::unordered_map<std::string_view, KeywordRule> kRules = {
      {"type", {true, Kind::kType, &Compiler::CompileType}},
      {"enum", {true, Kind::kEnum, &Compiler::CompileEnum}},
      {"const", {true, Kind::kConst, &Compiler::CompileConst}},
      {"minimum", {true, Kind::kMinimum, &Compiler::CompileBound}},
      {"maximum", {true, Kind::kMaximum, &Compiler::CompileBound}},
      {"exclusiveMinimum", {true, Kind::kExclusiveMinimum, &Compiler::CompileExclusiveBound}},
      {"exclusiveMaximum", {true, Kind::kExclusiveMaximum, &Compiler::CompileExclusiveBound}},
      {"multipleOf", {true, Kind::kMultipleOf, &Compiler::CompileNumberRule}},
      {"minLength", {true, Kind::kMinLength, &Compiler::CompileCountRule}},
      {"maxLength", {true, Kind::kMaxLength, &Compiler::CompileCountRule}},
      {"minItems", {true, Kind::kMinItems, &Compiler::CompileCountRule}},
      {"maxItems", {true, Kind::kMaxItems, &Compiler::CompileCountRule}},
      {"minProperties", {true, Kind::kMinProperties, &Compiler::CompileCountRule}},
      {"maxProperties", {true, Kind::kMaxProperties, &Compiler::CompileCountRule}},
      {"uniqueItems", {true, Kind::kUniqueItems, &Compiler::CompileUniqueItems}},
      {"pattern", {true, Kind::kPattern, &Compiler::CompilePattern}},
      {"required", {true, Kind::kRequired, &Compiler::CompileRequired}},
      {"dependentRequired", {true, Kind::kDependentRequired, &Compiler::CompileDependentRequired}},
      {"format", {false, Kind::kFormat, &Compiler::CompileFormat}},
      {"properties", {false, Kind::kMembers, &Compiler::CompileMembersRule}},
      {"patternProperties", {false, Kind::kMembers, &Compiler::CompileMembersRule}},
      {"additionalProperties", {false, Kind::kMembers, &Compiler::CompileMembersRule}},
      {"prefixItems", {false, Kind::kItems, &Compiler::CompileItemsRule}},
      {"items", {false, Kind::kItems, &Compiler::CompileItemsRule}},
      {"additionalItems", {false, Kind::kItems, &Compiler::CompileItemsRule}},
      {"contains", {false, Kind::kContains, &Compiler::CompileContains}},
      {"allOf", {false, Kind::kAllOf, &Compiler::CompileSchemaListRule}},
      {"anyOf", {false, Kind::kAnyOf, &Compiler::CompileSchemaListRule}},
      {"oneOf", {false, Kind::kOneOf, &Compiler::CompileSchemaListRule}},
      {"not", {false, Kind::kNot, &Compiler::CompileSubschema}},
      {"propertyNames", {false, Kind::kPropertyNames, &Compiler::CompileSubschema}},
      {"if", {false, Kind::kIf, &Compiler::CompileIf}},
      {"dependentSchemas", {false, Kind::kDependentSchemas, &Compiler::CompileDependencies}},
      {"dependencies", {false, Kind::kDependentSchemas, &Compiler::CompileDependencies}},
      {"$ref", {false, Kind::kRef, &Compiler::CompileRef}},
      {"$dynamicRef", {false, Kind::kDynamicRef, &Compiler::CompileRef}},
      {"$recursiveRef", {false, Kind::kRef, &Compiler::CompileRef}},
  };
  auto it = kRules.find(key);
  return it == kRules.end() ? nullptr : &it->second;
}

Status Compiler::CompileKeyword(Node* node, const Json& schema, const Location& loc,
                                const std::string& key, const Json& value) {
  const KeywordRule* rule = FindRule(key);
  if (rule == nullptr || (rule->validation_vocab && !loc.dialect.validation_vocab))
    return Status::Ok();
  return (this->*rule->compile)(KeywordCall{node, schema, loc, key, value}, rule->kind);
}

Status Compiler::CompileType(const KeywordCall& c, Kind kind) {
  uint8_t mask = 0;
  bool ok = true;
  auto add = [&](const Json& t) {
    uint8_t bit = t.is_string() ? TypeBitOf(t.as_string()) : 0;
    mask |= bit;
    ok = ok && bit != 0;
  };
  if (c.value.is_array()) {
    for (const Json& t : c.value.as_array()) add(t);
  } else {
    add(c.value);
  }
  if (!ok) {
    return Bad(ChildPath(c.node, c.key),
               "must be a type name (null, boolean, object, array, number, string, integer) "
               "or an array of them");
  }
  if (mask == 0) return Status::Ok();
  Keyword& type = Add(c.node, kind, c.key);
  type.types = mask;
  // Draft 4 (section 3.5 of its validation spec) defines an integer as a number without a
  // fraction part, as written: 1.0 is not one (the suite's optional zeroTerminatedFloats).
  // Later drafts define it by value.
  type.integer_has_no_fraction = c.loc.dialect.draft == Draft::kDraft4;
  return Status::Ok();
}

Status Compiler::CompileEnum(const KeywordCall& c, Kind kind) {
  if (!c.value.is_array()) return Bad(ChildPath(c.node, c.key), "must be an array");
  Keyword& k = Add(c.node, kind, c.key);
  k.values = c.value.as_array();
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
    bool exact =
        v.is_number() && v.big_integer().empty() && std::fabs(v.as_double()) < 9007199254740992.0;
    if (!exact) k.numbers_only = false;
  }
  if (k.numbers_only) {
    for (const Json& v : k.values) k.numbers.push_back(v.as_double());
  }
  return Status::Ok();
}

Status Compiler::CompileConst(const KeywordCall& c, Kind kind) {
  if (c.loc.dialect.draft == Draft::kDraft4) return Status::Ok();  // draft 4 has no const
  Add(c.node, kind, c.key).value = c.value;
  return Status::Ok();
}

// minimum and maximum; in draft 4 a boolean exclusiveMinimum/Maximum beside them makes them
// exclusive.
Status Compiler::CompileBound(const KeywordCall& c, Kind kind) {
  bool minimum = kind == Kind::kMinimum;
  if (c.loc.dialect.draft == Draft::kDraft4) {
    const Json* flag = c.schema.find(minimum ? "exclusiveMinimum" : "exclusiveMaximum");
    if (flag && flag->is_bool() && flag->as_bool())
      kind = minimum ? Kind::kExclusiveMinimum : Kind::kExclusiveMaximum;
  }
  return CompileNumber(c.node, kind, c.key, c.value);
}

// exclusiveMinimum and exclusiveMaximum as numbers (draft 6 on; draft 4's booleans are read by
// CompileBound).
Status Compiler::CompileExclusiveBound(const KeywordCall& c, Kind kind) {
  if (c.loc.dialect.draft == Draft::kDraft4) return Status::Ok();
  return CompileNumber(c.node, kind, c.key, c.value);
}

Status Compiler::CompileNumberRule(const KeywordCall& c, Kind kind) {
  return CompileNumber(c.node, kind, c.key, c.value);
}

Status Compiler::CompileCountRule(const KeywordCall& c, Kind kind) {
  return CompileCount(c.node, kind, c.key, c.value);
}

Status Compiler::CompileUniqueItems(const KeywordCall& c, Kind kind) {
  if (!c.value.is_bool()) return Bad(ChildPath(c.node, c.key), "must be a boolean");
  if (c.value.as_bool()) Add(c.node, kind, c.key);
  return Status::Ok();
}

Status Compiler::CompilePattern(const KeywordCall& c, Kind kind) {
  if (!c.value.is_string()) return Bad(ChildPath(c.node, c.key), "must be a string");
  Result<const EcmaRegex*> re = GetRegex(c.value.as_string());
  if (!re.ok()) return Bad(ChildPath(c.node, c.key), re.status().message());
  Add(c.node, kind, c.key).regex = *re;
  return Status::Ok();
}

Status Compiler::CompileRequired(const KeywordCall& c, Kind kind) {
  if (!c.value.is_array()) {
    if (c.value.is_bool()) return Status::Ok();  // draft-03 style, meaningless here
    return Bad(ChildPath(c.node, c.key), "must be an array of strings");
  }
  Keyword& k = Add(c.node, kind, c.key);
  for (const Json& n : c.value.as_array()) {
    if (n.is_string()) k.names.push_back(n.as_string());
  }
  if (k.names.empty()) c.node->keywords.pop_back();
  return Status::Ok();
}

Status Compiler::CompileDependentRequired(const KeywordCall& c, Kind kind) {
  if (IsLegacy(c.loc.dialect.draft)) return Status::Ok();  // 2019-09 on
  if (!c.value.is_object()) return Bad(ChildPath(c.node, c.key), "must be an object");
  Keyword& k = Add(c.node, kind, c.key);
  for (const auto& [name, list] : c.value.as_object()) {
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

Status Compiler::CompileFormat(const KeywordCall& c, Kind kind) {
  if (!c.value.is_string()) return Bad(ChildPath(c.node, c.key), "must be a string");
  Format f = FormatFromName(c.value.as_string());
  if (f != Format::kUnknown && (options_.assert_format || c.loc.dialect.format_assertion)) {
    Keyword& k = Add(c.node, kind, c.key);
    k.format = f;
    k.names.push_back(c.value.as_string());
  }
  return Status::Ok();
}

}  // namespace structure::pipeline::validator_internal
