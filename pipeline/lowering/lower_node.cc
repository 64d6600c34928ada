// Lowering of one subschema: the dispatch, draft-04/07 normalisation, and typed nodes with
// their scalar keywords. Composition ($ref, allOf, unions) is in lower_compose.cc.
#include <algorithm>
#include <cmath>

#include "pipeline/generate/json_type.h"
#include "pipeline/generate/regex_sample.h"
#include "pipeline/generate/schema_merge.h"
#include "pipeline/generate/schema_ref.h"
#include "pipeline/lowering/drop_note.h"
#include "pipeline/lowering/lower_internal.h"

namespace structure::pipeline::detail {
namespace {

const char* const kStringKeywords[] = {"minLength",    "maxLength",       "pattern",
                                       "format",       "contentEncoding", "contentMediaType",
                                       "contentSchema"};
const char* const kNumberKeywords[] = {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                                       "multipleOf"};
const char* const kArrayKeywords[] = {
    "items",       "prefixItems", "additionalItems", "minItems",    "maxItems",
    "uniqueItems", "contains",    "minContains",     "maxContains", "unevaluatedItems"};
const char* const kObjectKeywords[] = {
    "properties",       "required",      "additionalProperties", "patternProperties",
    "propertyNames",    "minProperties", "maxProperties",        "dependentRequired",
    "dependentSchemas", "dependencies",  "unevaluatedProperties"};

template <size_t N>
bool In(const char* const (&list)[N], const std::string& k) {
  return std::find_if(list, list + N, [&](const char* x) { return k == x; }) != list + N;
}

bool NeedsNormalize(const Json& s) {
  const Json* items = s.find("items");
  const Json* emin = s.find("exclusiveMinimum");
  const Json* emax = s.find("exclusiveMaximum");
  return (items && items->is_array()) || (emin && emin->is_bool()) || (emax && emax->is_bool());
}

// Draft-04/06/07 spellings rewritten to 2020-12 (tuple items, boolean exclusive bounds).
Json Normalize(const Json& s) {
  const Json* items = s.find("items");
  bool tuple = items && items->is_array();
  Json out = s;
  if (tuple) {
    out.set("prefixItems", *items);
    out.erase("items");
    if (const Json* add = s.find("additionalItems")) out.set("items", *add);
    out.erase("additionalItems");
  }
  for (auto [ex, bound] :
       {std::pair{"exclusiveMinimum", "minimum"}, std::pair{"exclusiveMaximum", "maximum"}}) {
    const Json* e = s.find(ex);
    if (!e || !e->is_bool()) continue;
    const Json* b = s.find(bound);
    if (e->as_bool() && b && b->is_number()) {
      out.set(ex, *b);
      out.erase(bound);
    } else {
      out.erase(ex);
    }
  }
  return out;
}

std::vector<std::string> InferTypes(const Json& s) {
  std::vector<std::string> out;
  auto add = [&](const std::string& t) {
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
  };
  if (const Json* t = s.find("type")) {
    if (t->is_string()) add(t->as_string());
    if (t->is_array())
      for (const Json& x : t->as_array())
        if (x.is_string()) add(x.as_string());
    return out;
  }
  if (const Json* c = s.find("const")) {
    add(SchemaTypeOf(*c));
    return out;
  }
  if (const Json* e = s.find("enum"); e && e->is_array()) {
    for (const Json& v : e->as_array()) add(SchemaTypeOf(v));
    return out;
  }
  for (const auto& [k, v] : s.as_object()) {
    if (In(kObjectKeywords, k)) add("object");
    if (In(kArrayKeywords, k)) add("array");
    if (In(kStringKeywords, k)) add("string");
    if (In(kNumberKeywords, k)) add("number");
  }
  return out;
}

}  // namespace

bool AppliesToType(const std::string& k, const std::string& t) {
  if (In(kStringKeywords, k)) return t == "string";
  if (In(kNumberKeywords, k)) return t == "number" || t == "integer";
  if (In(kArrayKeywords, k)) return t == "array";
  if (In(kObjectKeywords, k)) return t == "object";
  return true;
}

int Lowerer::AddPlan(LiftNode node) {
  plan_.push_back(std::move(node));
  return static_cast<int>(plan_.size()) - 1;
}

void Lowerer::Drop(const std::string& path, const std::string& keyword, const Json& value,
                   Json* node) {
  dropped_.push_back({path, keyword, value});
  if (!node || !Accepts("description") || !node->is_object()) return;
  Json& d = (*node)["description"];
  std::string desc = d.is_string() ? d.as_string() : "";
  if (desc.size() > 2000) return;
  d = Json(WithDropNote(std::move(desc), keyword, value));
}

const Json& Lowerer::Deref(const Json& s, Json& storage) {
  const Json* cur = &s;
  for (int hops = 0; hops < 32; ++hops) {
    const Json* ref = cur->is_object() ? cur->find("$ref") : nullptr;
    if (!ref || !ref->is_string()) return *cur;
    const Json* target = ResolveLocalRef(root_, ref->as_string());
    if (!target) return *cur;
    bool only_annotations = true;
    for (const auto& [k, v] : cur->as_object())
      only_annotations = only_annotations && (k == "$ref" || IsAnnotationKeyword(k));
    if (only_annotations) {
      cur = target;
      continue;
    }
    Json rest = *cur;
    rest.erase("$ref");
    Json merged = MergeSchemas(*target, rest, nullptr);
    storage = std::move(merged);
    cur = &storage;
  }
  return *cur;
}

namespace {
Json Shape(const Json& s, int level) {
  if (!s.is_object()) return s;
  Json out = Json::MakeObject();
  for (const auto& [k, v] : s.as_object()) {
    if (k == "type" || k == "enum" || k == "const" || k == "$ref" || k == "nullable") {
      out.set(k, v);
    } else if (level > 0 && (k == "required" || (k == "additionalProperties" && v.is_bool()))) {
      out.set(k, v);
    } else if (level > 0 && k == "properties" && v.is_object()) {
      Json props = Json::MakeObject();
      for (const auto& [name, sub] : v.as_object()) props.set(name, Shape(sub, level - 1));
      out.set(k, std::move(props));
    } else if (k == "anyOf" && v.is_array()) {
      Json list = Json::MakeArray();
      for (const Json& b : v.as_array()) list.push_back(Shape(b, level));
      out.set(k, std::move(list));
    }
  }
  return out;
}
}  // namespace

Json BranchShape(const Json& s) { return Shape(s, 1); }

Out Lowerer::Node(const Json& s, const std::string& path, int depth) {
  if (!fatal_.empty()) return Out{Json::MakeObject()};  // the attempt has failed; unwind cheaply
  if (++work_ > (mode_.inline_refs ? kMaxInlineWork : kMaxWork) || depth > 400) {
    Fatal("the schema is too large or too deeply nested to lower");
    return Out{Json::MakeObject()};
  }
  if (s.is_bool()) return s.as_bool() ? Any(Json::MakeObject(), path) : Out{Json(), -1, true};
  if (!s.is_object()) return Any(Json::MakeObject(), path);
  if (const Json* text = s.find(kJsonTextKeyword); text && text->is_bool() && text->as_bool())
    return Opaque(s, path, "too big for any one call of a split");
  if (s.contains("$ref")) return Ref(s, path, depth);
  Json normalized;
  if (NeedsNormalize(s)) normalized = Normalize(s);
  const Json& n = normalized.is_null() ? s : normalized;
  if (n.contains("allOf")) return AllOf(n, path, depth);
  if (n.contains("anyOf") || n.contains("oneOf")) return Union(n, path, depth);
  std::vector<std::string> types = InferTypes(n);
  bool nullable = std::find(types.begin(), types.end(), "null") != types.end();
  std::vector<std::string> concrete;
  bool has_number = std::find(types.begin(), types.end(), "number") != types.end();
  for (const std::string& t : types)
    if (t != "null" && !(t == "integer" && has_number)) concrete.push_back(t);
  if (types.empty()) return Any(n, path);
  if (concrete.empty()) {
    Json out = Json::MakeObject();
    out.set("type", Json("null"));
    if (p_.type_arrays) return Out{out};
    // No null type in the provider's schemas: the JSON text "null" in a string, which the lift
    // reads back as null (an enum, where the provider takes one; else any JSON text, checked
    // after the lift).
    Out any = Any(n, path);
    if (Accepts("enum")) any.schema.set("enum", Json(Json::Array{Json("null")}));
    return any;
  }
  if (concrete.size() == 1) {
    Out o = Typed(n, concrete[0], path, depth);
    return nullable && !o.never ? Nullable(std::move(o)) : o;
  }
  Json branches = Json::MakeArray();
  LiftNode node;
  node.kind = LiftNode::Kind::kAnyOf;
  bool identity = true;
  for (const std::string& t : concrete) {
    Out o = Typed(n, t, path, depth);
    if (o.never) continue;
    o.schema.erase("description");
    identity = identity && o.plan == -1;
    node.branches.emplace_back(BranchShape(o.schema), o.plan);
    branches.push_back(std::move(o.schema));
  }
  if (branches.size() == 0) return Out{Json(), -1, true};
  Json out = Json::MakeObject();
  out.set("anyOf", std::move(branches));
  if (const Json* d = n.find("description"); d && Accepts("description"))
    out.set("description", *d);
  Out result{std::move(out), identity ? -1 : AddPlan(std::move(node))};
  return nullable ? Nullable(std::move(result)) : result;
}

bool Lowerer::LowerValues(const Json& s, const std::string& t, const std::string& path, Json* out) {
  const Json* c = s.find("const");
  const Json* e = s.find("enum");
  if (c || (e && e->is_array())) {
    Json values = Json::MakeArray();
    if (c) {
      if (HasSchemaType(*c, t) && (!e || !e->is_array() ||
                                   std::any_of(e->as_array().begin(), e->as_array().end(),
                                               [&](const Json& x) { return x == *c; })))
        values.push_back(*c);
    } else {
      for (const Json& v : e->as_array())
        if (HasSchemaType(v, t)) values.push_back(v);
    }
    if (values.size() == 0) return false;
    size_t chars = 0;
    bool primitive = t != "object" && t != "array";
    for (const Json& v : values.as_array()) chars += v.is_string() ? v.as_string().size() : 0;
    const char* kw = c ? "const" : "enum";
    Json original = c ? *c : *e;
    if (!primitive || (p_.enum_strings_only && t != "string") ||
        (!p_.enum_booleans && t == "boolean") ||
        (p_.max_enum_values_single && values.size() > p_.max_enum_values_single) ||
        (mode_.enum_cap && values.size() > mode_.enum_cap) ||
        (p_.large_enum_threshold && values.size() > p_.large_enum_threshold &&
         chars > p_.large_enum_max_chars)) {
      Drop(path, kw, original, out);
    } else if (values.size() == 1 && Accepts("const")) {
      out->set("const", values.as_array()[0]);
    } else if (Accepts("enum")) {
      out->set("enum", std::move(values));
    } else {
      Drop(path, kw, original, out);
    }
  }
  return true;
}

void Lowerer::LowerScalarKeywords(const Json& s, const std::string& t, const std::string& path,
                                  Json* out) {
  for (const auto& [k, v] : s.as_object()) {
    if (!AppliesToType(k, t) || !(In(kStringKeywords, k) || In(kNumberKeywords, k))) continue;
    bool keep = Accepts(k);
    if (k == "format") keep = keep && v.is_string() && p_.formats.count(v.as_string());
    if (k == "pattern")
      keep = keep && v.is_string() && IsSimpleRegex(v.as_string(), p_.pattern_max_count) &&
             (!p_.pattern_anchored || (v.as_string().size() > 1 && v.as_string().front() == '^' &&
                                       v.as_string().back() == '$'));
    if ((k == "minLength" || k == "maxLength") && p_.pattern_excludes_length &&
        ((s.contains("pattern") && Accepts("pattern")) ||
         (s.contains("format") && Accepts("format"))))
      keep = false;
    if (In(kNumberKeywords, k) && p_.numeric_bounds_integer_only && t != "integer") keep = false;
    if ((k == "exclusiveMinimum" || k == "exclusiveMaximum") && !keep && v.is_number()) {
      const char* bound = k == "exclusiveMinimum" ? "minimum" : "maximum";
      if (Accepts(bound) && !(p_.numeric_bounds_integer_only && t != "integer")) {
        // For integers x > v is x >= floor(v) + 1: exact. For numbers it is a relaxation.
        double d = v.as_double();
        double b =
            t == "integer" ? (k == "exclusiveMinimum" ? std::floor(d) + 1 : std::ceil(d) - 1) : d;
        const Json* existing = s.find(bound);
        bool tighter =
            !existing || !existing->is_number() ||
            (k == "exclusiveMinimum" ? b >= existing->as_double() : b <= existing->as_double());
        if (tighter)
          out->set(bound, std::fabs(b) < 9e15 && std::floor(b) == b ? Json(static_cast<int64_t>(b))
                                                                    : Json(b));
        if (t != "integer") Drop(path, k, v, out);
        continue;
      }
    }
    if ((k == "minimum" || k == "maximum") && out->contains(k)) {
      const Json& cur = *out->find(k);
      bool tighter =
          k == "minimum" ? v.as_double() > cur.as_double() : v.as_double() < cur.as_double();
      if (keep && tighter) out->set(k, v);
      continue;
    }
    if (keep) {
      out->set(k, v);
    } else {
      Drop(path, k, v, out);
    }
  }
}

Out Lowerer::Typed(const Json& s, const std::string& t, const std::string& path, int depth) {
  Json out = Json::MakeObject();
  out.set("type", Json(t));
  for (const char* a : {"title", "description"})
    if (const Json* v = s.find(a); v && v->is_string() && Accepts(a)) out.set(a, *v);
  if (!LowerValues(s, t, path, &out)) return Out{Json(), -1, true};
  for (const char* generic : {"not", "if", "then", "else"})
    if (const Json* v = s.find(generic)) Drop(path, generic, *v, &out);
  if ((t == "object" || t == "array") && mode_.cut_depth && nest_ >= mode_.cut_depth)
    return Opaque(s, path, "nesting deeper than the provider allows");
  if (t == "object" || t == "array") {
    ++nest_;
    Out o = t == "object" ? Object(s, path, depth, std::move(out))
                          : Array(s, path, depth, std::move(out));
    --nest_;
    return o;
  }
  LowerScalarKeywords(s, t, path, &out);
  return Out{std::move(out)};
}

}  // namespace structure::pipeline::detail
