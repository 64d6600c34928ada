// Lowering of one subschema: references, allOf merges, unions, types and scalar keywords.
#include <algorithm>
#include <cmath>

#include "pipeline/lower_internal.h"
#include "pipeline/regex_sample.h"
#include "pipeline/schema_merge.h"
#include "pipeline/schema_ref.h"

namespace structure::pipeline::detail {
namespace {

constexpr size_t kMaxWork = 100000;
constexpr size_t kMaxInlineWork = 25000;  // inlining multiplies work; a bigger result helps nobody
constexpr char kDropNote[] = " Also required (checked after generation): ";

const char* const kStringKeywords[] = {"minLength", "maxLength", "pattern", "format",
                                       "contentEncoding", "contentMediaType", "contentSchema"};
const char* const kNumberKeywords[] = {"minimum", "maximum", "exclusiveMinimum",
                                       "exclusiveMaximum", "multipleOf"};
const char* const kArrayKeywords[] = {"items", "prefixItems", "additionalItems", "minItems",
                                      "maxItems", "uniqueItems", "contains", "minContains",
                                      "maxContains", "unevaluatedItems"};
const char* const kObjectKeywords[] = {
    "properties", "required", "additionalProperties", "patternProperties", "propertyNames",
    "minProperties", "maxProperties", "dependentRequired", "dependentSchemas", "dependencies",
    "unevaluatedProperties"};

template <size_t N>
bool In(const char* const (&list)[N], const std::string& k) {
  return std::find_if(list, list + N, [&](const char* x) { return k == x; }) != list + N;
}

std::string JsonTypeOf(const Json& v) {
  switch (v.type()) {
    case Json::Type::kNull: return "null";
    case Json::Type::kBool: return "boolean";
    case Json::Type::kInt: return "integer";
    case Json::Type::kDouble: return v.is_integral() ? "integer" : "number";
    case Json::Type::kString: return "string";
    case Json::Type::kArray: return "array";
    case Json::Type::kObject: return "object";
  }
  return "null";
}

bool ValueHasType(const Json& v, const std::string& t) {
  std::string vt = JsonTypeOf(v);
  return vt == t || (t == "number" && vt == "integer");
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
  for (auto [ex, bound] : {std::pair{"exclusiveMinimum", "minimum"}, std::pair{"exclusiveMaximum", "maximum"}}) {
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
    add(JsonTypeOf(*c));
    return out;
  }
  if (const Json* e = s.find("enum"); e && e->is_array()) {
    for (const Json& v : e->as_array()) add(JsonTypeOf(v));
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

void Lowerer::Drop(const std::string& path, const std::string& keyword, const Json& value, Json* node) {
  dropped_.push_back({path, keyword, value});
  if (!node || !Accepts("description") || !node->is_object()) return;
  std::string text = ToJson(value);
  if (text.size() > 120) text = text.substr(0, 117) + "...";
  Json& d = (*node)["description"];
  std::string desc = d.is_string() ? d.as_string() : "";
  if (desc.size() > 2000) return;
  desc += desc.find(kDropNote) == std::string::npos ? std::string(kDropNote) : std::string("; ");
  desc += keyword + "=" + text;
  if (desc.front() == ' ') desc.erase(0, 1);
  d = Json(desc);
}

const Json& Lowerer::Deref(const Json& s, Json& storage) {
  const Json* cur = &s;
  for (int hops = 0; hops < 32; ++hops) {
    const Json* ref = cur->is_object() ? cur->find("$ref") : nullptr;
    if (!ref || !ref->is_string()) return *cur;
    const Json* target = ResolveLocalRef(root_, ref->as_string());
    if (!target) return *cur;
    bool only_annotations = true;
    for (const auto& [k, v] : cur->as_object()) only_annotations = only_annotations && (k == "$ref" || IsAnnotationKeyword(k));
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
    if (!p_.type_arrays) return Any(n, path);
    return Out{out};
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
  if (const Json* d = n.find("description"); d && Accepts("description")) out.set("description", *d);
  Out result{std::move(out), identity ? -1 : AddPlan(std::move(node))};
  return nullable ? Nullable(std::move(result)) : result;
}

Out Lowerer::Ref(const Json& s, const std::string& path, int depth) {
  const Json* ref = s.find("$ref");
  const Json* target = ref->is_string() ? ResolveLocalRef(root_, ref->as_string()) : nullptr;
  Json rest = s;
  rest.erase("$ref");
  bool only_annotations = true;
  for (const auto& [k, v] : rest.as_object()) only_annotations = only_annotations && IsAnnotationKeyword(k);
  if (!target) {
    Drop(path, "$ref", *ref, nullptr);
    return Node(rest, path, depth + 1);
  }
  if (!only_annotations) return Node(MergeSchemas(*target, rest, nullptr), path, depth + 1);
  std::string target_path = ref->as_string();
  if (size_t h = target_path.find('#'); h != std::string::npos) target_path = target_path.substr(h + 1);
  if (!p_.refs || mode_.inline_refs) {
    if (std::find(stack_.begin(), stack_.end(), target) != stack_.end()) {
      if (mode_.inline_refs) {
        ++recursion_cuts_;
        return Opaque(*target, path, "recursion below its first level");
      }
      recursion_fatal_ = true;
      Fatal("the schema is recursive and profile '" + p_.name + "' does not accept recursion");
      return Out{Json::MakeObject()};
    }
    // Inlining repeats the same target many times; its lowering depends only on the nesting
    // level, unless a recursion cut happened inside (that depends on the stack).
    auto key = std::make_pair(target, nest_);
    if (auto memo = inline_memo_.find(key); memo != inline_memo_.end()) {
      work_ += memo->second.second;
      if (work_ > kMaxInlineWork) {
        Fatal("the schema is too large once its references are inlined");
        return Out{Json::MakeObject()};
      }
      return memo->second.first;
    }
    size_t cuts_before = recursion_cuts_, work_before = work_;
    stack_.push_back(target);
    Out o = Node(*target, target_path, depth + 1);
    stack_.pop_back();
    if (recursion_cuts_ == cuts_before) inline_memo_[key] = {o, work_ - work_before};
    return o;
  }
  auto it = defs_by_target_.find(target);
  if (it == defs_by_target_.end()) {
    std::string base;
    for (char c : target_path.substr(target_path.rfind('/') == std::string::npos ? 0 : target_path.rfind('/') + 1))
      base += (isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') ? c : '_';
    if (base.empty()) base = "root";
    std::string name = base;
    for (int i = 2; def_names_.count(name); ++i) name = base + "_" + std::to_string(i);
    def_names_.insert(name);
    int slot = AddPlan(LiftNode{});
    it = defs_by_target_.emplace(target, Def{name, slot, false}).first;
    stack_.push_back(target);
    Out o = Node(*target, target_path, depth + 1);
    stack_.pop_back();
    it = defs_by_target_.find(target);
    it->second.done = true;
    if (o.never) {
      Fatal("definition " + target_path + " accepts no value");
      return o;
    }
    defs_.set(name, std::move(o.schema));
    if (o.plan != -1) {
      LiftNode copy = plan_[o.plan];
      plan_[slot] = std::move(copy);
    }
  } else if (!it->second.done && !p_.recursion) {
    recursion_fatal_ = true;
    Fatal("the schema is recursive and profile '" + p_.name + "' does not accept recursion");
  }
  Json out = Json::MakeObject();
  out.set("$ref", Json("#/$defs/" + EscapePointerToken(it->second.name)));
  bool identity = it->second.done && plan_[it->second.slot].kind == LiftNode::Kind::kIdentity;
  return Out{std::move(out), identity ? -1 : it->second.slot};
}

Out Lowerer::AllOf(const Json& s, const std::string& path, int depth) {
  Json m = Json::MakeObject();
  for (const auto& [k, v] : s.as_object())
    if (k != "allOf") m.set(k, v);
  const Json& all = *s.find("allOf");
  for (size_t i = 0; i < all.size(); ++i) {
    std::vector<Unmerged> unmerged;
    Json storage;
    m = MergeSchemas(m, Deref(all.as_array()[i], storage), &unmerged);
    for (const Unmerged& u : unmerged) Drop(path + "/allOf/" + std::to_string(i), u.keyword, u.value, nullptr);
    if (m.is_bool() && !m.as_bool()) return Out{Json(), -1, true};
  }
  return Node(m, path, depth + 1);
}

Out Lowerer::Union(const Json& s, const std::string& path, int depth) {
  std::string key = s.contains("anyOf") ? "anyOf" : "oneOf";
  const Json& list = *s.find(key);
  Json constraints = Json::MakeObject();
  for (const auto& [k, v] : s.as_object())
    if (k != key) constraints.set(k, v);
  if (key == "anyOf" && s.contains("oneOf")) {
    Drop(path, "oneOf", *s.find("oneOf"), nullptr);
    constraints.erase("oneOf");
  }
  if (key == "oneOf") Drop(path, "oneOf", Json("exactly one branch must match"), nullptr);
  Json annotations = Json::MakeObject();
  for (const char* a : {"description", "title"})
    if (const Json* v = s.find(a); v && Accepts(a)) annotations.set(a, *v);
  bool plain = true;
  for (const auto& [k, v] : constraints.as_object()) plain = plain && IsAnnotationKeyword(k);
  if (!list.is_array() || list.size() == 0) return Node(constraints, path, depth + 1);
  LiftNode node;
  node.kind = LiftNode::Kind::kAnyOf;
  Json branches = Json::MakeArray();
  bool identity = true;
  bool null_branch = false;
  for (size_t i = 0; i < list.size(); ++i) {
    const std::string bpath = path + "/" + key + "/" + std::to_string(i);
    if (!p_.type_arrays) {
      // Without a null type, a {"type":"null"} branch becomes "nullable" on the union.
      Json storage;
      const Json& b = Deref(list.as_array()[i], storage);
      const Json* t = b.is_object() ? b.find("type") : nullptr;
      if (t && t->is_string() && t->as_string() == "null") {
        null_branch = true;
        continue;
      }
    }
    Out o;
    if (plain) {
      o = Node(list.as_array()[i], bpath, depth + 1);
    } else {
      std::vector<Unmerged> unmerged;
      Json storage;
      Json merged = MergeSchemas(constraints, Deref(list.as_array()[i], storage), &unmerged);
      for (const Unmerged& u : unmerged) Drop(bpath, u.keyword, u.value, nullptr);
      o = Node(merged, bpath, depth + 1);
    }
    if (o.never) continue;
    identity = identity && o.plan == -1;
    node.branches.emplace_back(BranchShape(o.schema), o.plan);
    branches.push_back(std::move(o.schema));
  }
  if (branches.size() == 0) {
    if (!null_branch) return Out{Json(), -1, true};
    Drop(path, "type", Json("null"), nullptr);
    return Nullable(Out{Json(Json::Object{{"type", Json("string")}})});
  }
  if (branches.size() == 1) {
    Out only{branches.as_array()[0], node.branches[0].second};
    if (only.schema.is_object() && !only.schema.contains("description") && annotations.contains("description") &&
        !only.schema.contains("$ref"))
      only.schema.set("description", *annotations.find("description"));
    return null_branch ? Nullable(std::move(only)) : only;
  }
  Json out = Json::MakeObject();
  out.set("anyOf", std::move(branches));
  for (const auto& [k, v] : annotations.as_object()) out.set(k, v);
  Out result{std::move(out), identity ? -1 : AddPlan(std::move(node))};
  return null_branch ? Nullable(std::move(result)) : result;
}

Out Lowerer::Any(const Json& s, const std::string& path) {
  Json out = Json::MakeObject();
  int plan = -1;
  if (p_.require_type) {
    out.set("type", Json("string"));
    if (Accepts("description"))
      out.set("description", Json(std::string(s.find("description") && s.find("description")->is_string()
                                                  ? s.find("description")->as_string() + " "
                                                  : "") +
                                  "(Any JSON value, written as a JSON text in this string.)"));
    LiftNode node;
    node.kind = LiftNode::Kind::kJsonString;
    plan = AddPlan(std::move(node));
  } else if (const Json* d = s.find("description"); d && Accepts("description")) {
    out.set("description", *d);
  }
  if (s.is_object())
    for (const auto& [k, v] : s.as_object())
      if (!IsAnnotationKeyword(k) && k != "type") Drop(path, k, v, &out);
  return Out{std::move(out), plan};
}

Out Lowerer::Opaque(const Json& s, const std::string& path, const char* why) {
  dropped_.push_back({path, "$subschema", Json(std::string("checked locally: ") + why)});
  Json out = Json::MakeObject();
  out.set("type", Json("string"));
  if (Accepts("description")) {
    std::string desc;
    if (const Json* d = s.is_object() ? s.find("description") : nullptr; d && d->is_string()) desc = d->as_string() + " ";
    out.set("description", Json(desc + "(A JSON text in this string.)"));
  }
  LiftNode node;
  node.kind = LiftNode::Kind::kJsonString;
  return Out{std::move(out), AddPlan(std::move(node))};
}

Out Lowerer::Nullable(Out o) {
  Json& s = o.schema;
  if (p_.null_style == NullStyle::kNullableKeyword) {
    s.set("nullable", Json(true));
    return o;
  }
  const Json* t = s.find("type");
  if (s.contains("anyOf")) {
    bool has_null = false;
    for (const Json& b : s.find("anyOf")->as_array()) has_null = has_null || b == Json(Json::Object{{"type", Json("null")}});
    if (!has_null) s["anyOf"].push_back(Json(Json::Object{{"type", Json("null")}}));
  } else if (t && t->is_string()) {
    if (t->as_string() == "null") return o;
    Json arr = Json::MakeArray();
    arr.push_back(*t);
    arr.push_back(Json("null"));
    s.set("type", std::move(arr));
    if (const Json* c = s.find("const")) {
      Json e = Json::MakeArray();
      e.push_back(*c);
      s.erase("const");
      s.set("enum", std::move(e));
    }
    if (Json* e = s.find("enum"); e && e->is_array()) {
      bool has_null = false;
      for (const Json& v : e->as_array()) has_null = has_null || v.is_null();
      if (!has_null) e->push_back(Json());
    }
  } else if (t && t->is_array()) {
    bool has_null = false;
    for (const Json& v : t->as_array()) has_null = has_null || v == Json("null");
    if (!has_null) s["type"].push_back(Json("null"));
  } else if (s.contains("$ref")) {
    Json wrapped = Json::MakeObject();
    Json list = Json::MakeArray();
    list.push_back(std::move(s));
    list.push_back(Json(Json::Object{{"type", Json("null")}}));
    wrapped.set("anyOf", std::move(list));
    s = std::move(wrapped);
  }
  return o;
}

Out Lowerer::Typed(const Json& s, const std::string& t, const std::string& path, int depth) {
  Json out = Json::MakeObject();
  out.set("type", Json(t));
  for (const char* a : {"title", "description"})
    if (const Json* v = s.find(a); v && v->is_string() && Accepts(a)) out.set(a, *v);
  // enum / const
  const Json* c = s.find("const");
  const Json* e = s.find("enum");
  if (c || (e && e->is_array())) {
    Json values = Json::MakeArray();
    if (c) {
      if (ValueHasType(*c, t) && (!e || !e->is_array() || std::any_of(e->as_array().begin(), e->as_array().end(), [&](const Json& x) { return x == *c; })))
        values.push_back(*c);
    } else {
      for (const Json& v : e->as_array())
        if (ValueHasType(v, t)) values.push_back(v);
    }
    if (values.size() == 0) return Out{Json(), -1, true};
    size_t chars = 0;
    bool primitive = t != "object" && t != "array";
    for (const Json& v : values.as_array()) chars += v.is_string() ? v.as_string().size() : 0;
    const char* kw = c ? "const" : "enum";
    Json original = c ? *c : *e;
    if (!primitive || (p_.enum_strings_only && t != "string") ||
        (p_.max_enum_values_single && values.size() > p_.max_enum_values_single) ||
        (mode_.enum_cap && values.size() > mode_.enum_cap) ||
        (p_.large_enum_threshold && values.size() > p_.large_enum_threshold && chars > p_.large_enum_max_chars)) {
      Drop(path, kw, original, &out);
    } else if (values.size() == 1 && Accepts("const")) {
      out.set("const", values.as_array()[0]);
    } else if (Accepts("enum")) {
      out.set("enum", std::move(values));
    } else {
      Drop(path, kw, original, &out);
    }
  }
  for (const char* generic : {"not", "if", "then", "else"})
    if (const Json* v = s.find(generic)) Drop(path, generic, *v, &out);
  if ((t == "object" || t == "array") && mode_.cut_depth && nest_ >= mode_.cut_depth)
    return Opaque(s, path, "nesting deeper than the provider allows");
  if (t == "object" || t == "array") {
    ++nest_;
    Out o = t == "object" ? Object(s, path, depth, std::move(out)) : Array(s, path, depth, std::move(out));
    --nest_;
    return o;
  }
  bool pattern_kept = false;
  for (const auto& [k, v] : s.as_object()) {
    if (!AppliesToType(k, t) || !(In(kStringKeywords, k) || In(kNumberKeywords, k))) continue;
    bool keep = Accepts(k);
    if (k == "format") keep = keep && v.is_string() && p_.formats.count(v.as_string());
    if (k == "pattern")
      keep = keep && v.is_string() && IsSimpleRegex(v.as_string(), p_.pattern_max_count) &&
             (!p_.pattern_anchored || (v.as_string().size() > 1 && v.as_string().front() == '^' && v.as_string().back() == '$'));
    if ((k == "minLength" || k == "maxLength") && p_.pattern_excludes_length &&
        ((s.contains("pattern") && Accepts("pattern")) || (s.contains("format") && Accepts("format"))))
      keep = false;
    if (In(kNumberKeywords, k) && p_.numeric_bounds_integer_only && t != "integer") keep = false;
    if ((k == "exclusiveMinimum" || k == "exclusiveMaximum") && !keep && v.is_number()) {
      const char* bound = k == "exclusiveMinimum" ? "minimum" : "maximum";
      if (Accepts(bound) && !(p_.numeric_bounds_integer_only && t != "integer")) {
        // For integers x > v is x >= floor(v) + 1: exact. For numbers it is a relaxation.
        double d = v.as_double();
        double b = t == "integer" ? (k == "exclusiveMinimum" ? std::floor(d) + 1 : std::ceil(d) - 1) : d;
        const Json* existing = s.find(bound);
        bool tighter = !existing || !existing->is_number() ||
                       (k == "exclusiveMinimum" ? b >= existing->as_double() : b <= existing->as_double());
        if (tighter) out.set(bound, std::fabs(b) < 9e15 && std::floor(b) == b ? Json(static_cast<int64_t>(b)) : Json(b));
        if (t != "integer") Drop(path, k, v, &out);
        continue;
      }
    }
    if ((k == "minimum" || k == "maximum") && out.contains(k)) {
      const Json& cur = *out.find(k);
      bool tighter = k == "minimum" ? v.as_double() > cur.as_double() : v.as_double() < cur.as_double();
      if (keep && tighter) out.set(k, v);
      continue;
    }
    if (keep) {
      out.set(k, v);
      pattern_kept = pattern_kept || k == "pattern";
    } else {
      Drop(path, k, v, &out);
    }
  }
  (void)pattern_kept;
  return Out{std::move(out)};
}

}  // namespace structure::pipeline::detail
