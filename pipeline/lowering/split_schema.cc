#include "pipeline/lowering/split_schema.h"

#include <algorithm>
#include <map>
#include <set>

#include <re2/re2.h>

#include "base/json_pointer.h"
#include "pipeline/generate/schema_merge.h"
#include "pipeline/generate/schema_ref.h"
#include "pipeline/lowering/lower.h"
#include "pipeline/lowering/split_closure.h"

namespace structure::pipeline {
namespace {

// Keywords of an object that read several of its fields (a $ref beside properties is a
// composition too). then/else travel with if.
const char* const kConstraintKeywords[] = {"dependentRequired",
                                           "dependencies",
                                           "dependentSchemas",
                                           "if",
                                           "allOf",
                                           "anyOf",
                                           "oneOf",
                                           "not",
                                           "$ref",
                                           "unevaluatedProperties",
                                           "propertyNames",
                                           "minProperties",
                                           "maxProperties"};

// Keywords a part rebuilds itself.
const char* const kRebuilt[] = {
    "properties", "required", "additionalProperties", "patternProperties", "$defs", "definitions",
    "then",       "else"};

bool OneOf(std::string_view k, const char* const* list, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (k == list[i]) return true;
  return false;
}
bool IsConstraint(std::string_view k) {
  return OneOf(k, kConstraintKeywords, std::size(kConstraintKeywords));
}
bool IsRebuilt(std::string_view k) { return OneOf(k, kRebuilt, std::size(kRebuilt)); }

// Follows a $ref that stands alone (annotations aside), bounded.
const Json& Deref(const Json& root, const Json& s) {
  const Json* cur = &s;
  for (int hop = 0; hop < 16 && cur->is_object(); ++hop) {
    const Json* ref = cur->find("$ref");
    if (!ref || !ref->is_string()) break;
    for (const auto& [k, v] : cur->as_object())
      if (k != "$ref" && !IsAnnotationKeyword(k)) return *cur;
    const Json* target = ResolveLocalRef(root, ref->as_string());
    if (!target) break;
    cur = target;
  }
  return *cur;
}

// Names of the properties a subschema reads; `all` when it reads the object as a whole.
void CollectNames(const Json& root, const Json& s, std::set<std::string>& names, bool& all,
                  int depth) {
  if (depth > 16) {
    all = true;
    return;
  }
  const Json& n = Deref(root, s);
  if (!n.is_object()) return;
  if (const Json* p = n.find("properties"); p && p->is_object())
    for (const auto& [k, v] : p->as_object()) names.insert(k);
  if (const Json* r = n.find("required"); r && r->is_array())
    for (const Json& x : r->as_array())
      if (x.is_string()) names.insert(x.as_string());
  for (const char* k : {"dependentRequired", "dependencies", "dependentSchemas"})
    if (const Json* d = n.find(k); d && d->is_object())
      for (const auto& [key, v] : d->as_object()) {
        names.insert(key);
        if (v.is_array()) {
          for (const Json& x : v.as_array())
            if (x.is_string()) names.insert(x.as_string());
        } else {
          CollectNames(root, v, names, all, depth + 1);
        }
      }
  for (const char* k : {"allOf", "anyOf", "oneOf"})
    if (const Json* a = n.find(k); a && a->is_array())
      for (const Json& b : a->as_array()) CollectNames(root, b, names, all, depth + 1);
  for (const char* k : {"not", "if", "then", "else"})
    if (const Json* sub = n.find(k)) CollectNames(root, *sub, names, all, depth + 1);
  for (const char* k : {"unevaluatedProperties", "propertyNames", "minProperties", "maxProperties"})
    if (n.contains(k)) all = true;
}

// The patternProperties schemas of object `s` that also apply to its property `name`.
std::vector<const Json*> PatternsFor(const Json& s, const std::string& name) {
  std::vector<const Json*> out;
  const Json* pp = s.find("patternProperties");
  if (!pp || !pp->is_object()) return out;
  RE2::Options o;
  o.set_log_errors(false);
  for (const auto& [pattern, sub] : pp->as_object()) {
    RE2 re(pattern, o);
    if (re.ok() && RE2::PartialMatch(name, re)) out.push_back(&sub);
  }
  return out;
}

// The schema of property `name` of object `s`: declared, or what additionalProperties gives
// an undeclared required name (patternProperties are added by the caller).
Json PropertySchema(const Json& s, const std::string& name) {
  if (const Json* p = s.find("properties"); p && p->is_object())
    if (const Json* sub = p->find(name)) return *sub;
  if (!PatternsFor(s, name).empty()) return Json::MakeObject();
  if (const Json* ap = s.find("additionalProperties"); ap && ap->is_object()) return *ap;
  return Json::MakeObject();
}

bool IsType(const Json& s, std::string_view type) {
  const Json* t = s.find("type");
  return !t || (t->is_string() && t->as_string() == type);
}

// The field names of a splittable object, in document order (declared, then required ones
// that are not declared); empty when it cannot be split.
std::vector<std::string> FieldNames(const Json& s, bool is_root) {
  std::vector<std::string> names;
  if (!s.is_object() || !IsType(s, "object")) return names;
  const Json* props = s.find("properties");
  if (!props || !props->is_object() || props->size() == 0) return names;
  if (s.contains("enum") || s.contains("const")) return names;
  if (!is_root && (s.contains("anyOf") || s.contains("oneOf"))) return names;
  for (const auto& [k, v] : props->as_object()) names.push_back(k);
  if (const Json* r = s.find("required"); r && r->is_array())
    for (const Json& x : r->as_array())
      if (x.is_string() && !props->contains(x.as_string()) &&
          std::find(names.begin(), names.end(), x.as_string()) == names.end())
        names.push_back(x.as_string());
  return names;
}

// The item schema of a list of objects that can be split by columns, or nullptr.
const Json* SplittableItems(const Json& root, const Json& s) {
  if (!s.is_object() || !IsType(s, "array")) return nullptr;
  for (const char* k : {"prefixItems", "contains", "unevaluatedItems", "additionalItems"})
    if (s.contains(k)) return nullptr;
  if (const Json* u = s.find("uniqueItems"); u && !(u->is_bool() && !u->as_bool())) return nullptr;
  const Json* items = s.find("items");
  if (!items || !items->is_object()) return nullptr;
  const Json& item = Deref(root, *items);
  return FieldNames(item, false).empty() ? nullptr : &item;
}

bool ListsRequired(const Json& s, const std::string& name) {
  if (const Json* r = s.find("required"); r && r->is_array())
    for (const Json& x : r->as_array())
      if (x.is_string() && x.as_string() == name) return true;
  return false;
}

bool HasItemToken(const std::string& pointer) {
  for (const std::string& t : PointerTokens(pointer))
    if (t == kEachItem) return true;
  return false;
}

}  // namespace

std::vector<std::string> PointerTokens(const std::string& pointer) {
  return SplitPointer(pointer).value_or(std::vector<std::string>{});
}

bool PointerWithin(const std::string& pointer, const std::string& ancestor) {
  if (pointer.size() < ancestor.size() || pointer.compare(0, ancestor.size(), ancestor) != 0)
    return false;
  return pointer.size() == ancestor.size() || pointer[ancestor.size()] == '/';
}

bool InstanceWithin(const std::string& instance, const std::string& field) {
  std::vector<std::string> a = PointerTokens(instance), f = PointerTokens(field);
  if (a.size() < f.size()) return false;
  for (size_t i = 0; i < f.size(); ++i) {
    if (f[i] == kEachItem && !a[i].empty() &&
        a[i].find_first_not_of("0123456789") == std::string::npos)
      continue;
    if (a[i] != f[i]) return false;
  }
  return true;
}

struct PartSchemas::Selection {
  bool whole = false;
  bool as_text = false;
  std::map<std::string, Selection> children;
};

PartSchemas::PartSchemas(const Json& root) : root_(root), view_(&Deref(root, root)) {
  if (!view_->is_object()) {
    why_not_ = "the schema is not an object schema";
    return;
  }
  // A root composed with allOf (or a union of one branch) is split as the one object the
  // branches make together; a root that may also be another type is asked as the object (a
  // narrowing).
  const Json* all = view_->find("allOf");
  for (const char* k : {"anyOf", "oneOf"})
    if (const Json* one = view_->find(k); !all && one && one->is_array() && one->size() == 1) {
      merged_root_ = *view_;
      merged_root_.erase(k);
      merged_root_.set("allOf", *one);
      view_ = &merged_root_;
      all = view_->find("allOf");
    }
  const Json* type = view_->find("type");
  bool typed_list = type && type->is_array();
  if ((all && all->is_array()) || typed_list) {
    Json merged = *view_;  // (view_ may be merged_root_ itself: copied first)
    merged.erase("allOf");
    if (typed_list) {
      bool object = false;
      for (const Json& t : type->as_array()) object = object || (t.is_string() && t == "object");
      if (object) merged.set("type", Json("object"));
    }
    std::vector<Unmerged> unmerged;
    if (all && all->is_array())
      for (const Json& b : all->as_array())
        merged = MergeSchemas(merged, Deref(root, b), &unmerged);
    if (merged.is_object()) {
      if (!unmerged.empty()) {
        Json rest = Json::MakeArray();
        for (const Unmerged& u : unmerged) rest.push_back(Json(Json::Object{{u.keyword, u.value}}));
        merged.set("allOf", std::move(rest));
      }
      merged_root_ = std::move(merged);
      view_ = &merged_root_;
    }
  }
  if (FieldNames(*view_, true).empty() && !SplittableItems(root_, *view_))
    why_not_ = "the root is neither an object with declared properties nor a list of them";
}

const Json* PartSchemas::NodeAt(const std::string& pointer, std::string* schema_path) const {
  const Json* node = view_;
  if (schema_path) schema_path->clear();
  for (const std::string& token : PointerTokens(pointer)) {
    if (token == kEachItem && SplittableItems(root_, *node)) {
      node = SplittableItems(root_, *node);
      if (schema_path) *schema_path += "/items";
      continue;
    }
    const Json* props = node->is_object() ? node->find("properties") : nullptr;
    const Json* sub = props && props->is_object() ? props->find(token) : nullptr;
    // A property that patternProperties also constrain is held whole, never split.
    if (!sub || !PatternsFor(*node, token).empty()) return nullptr;
    if (schema_path) *schema_path += "/properties/" + EscapePointerToken(token);
    node = &Deref(root_, *sub);
  }
  return node;
}

std::vector<std::string> PartSchemas::Fields(const std::string& pointer) const {
  std::vector<std::string> out;
  if (!why_not_.empty()) return out;
  const Json* node = NodeAt(pointer, nullptr);
  // One level of columns: nothing inside a list's items is split further.
  if (!node || HasItemToken(pointer)) return out;
  // A recursive schema is split down to its first repetition only.
  std::vector<std::string> tokens = PointerTokens(pointer);
  std::string above;
  for (size_t i = 0; i < tokens.size(); ++i) {
    if (NodeAt(above, nullptr) == node) return out;
    above += "/" + EscapePointerToken(tokens[i]);
  }
  std::string base = pointer;
  std::vector<std::string> names = FieldNames(*node, pointer.empty());
  if (names.empty()) {
    if (const Json* item = SplittableItems(root_, *node)) {
      names = FieldNames(*item, false);
      base += "/" + std::string(kEachItem);
    }
  }
  for (const std::string& name : names) out.push_back(base + "/" + EscapePointerToken(name));
  return out;
}

std::vector<FieldConstraint> PartSchemas::ConstraintsOf(const Json& s, const std::string& at,
                                                        const std::string& object) const {
  std::vector<FieldConstraint> out;
  std::vector<std::string> fields = FieldNames(s, true);
  for (const auto& [k, v] : s.as_object()) {
    if (!IsConstraint(k)) continue;
    std::set<std::string> names;
    bool all = false;
    if (k == "dependentRequired" || k == "dependencies" || k == "dependentSchemas") {
      CollectNames(root_, Json(Json::Object{{k, v}}), names, all, 0);
    } else if (k == "if") {
      CollectNames(root_, v, names, all, 0);
      for (const char* branch : {"then", "else"})
        if (const Json* b = s.find(branch)) CollectNames(root_, *b, names, all, 0);
    } else if (k == "allOf" || k == "anyOf" || k == "oneOf") {
      if (v.is_array())
        for (const Json& b : v.as_array()) CollectNames(root_, b, names, all, 0);
    } else if (k == "not") {
      CollectNames(root_, v, names, all, 0);
    } else if (k == "$ref") {
      CollectNames(root_, Json(Json::Object{{"$ref", v}}), names, all, 0);
    } else {
      all = true;
    }
    FieldConstraint c{at + "/" + EscapePointerToken(k), k, object, {}};
    for (const std::string& f : fields)
      if (all || names.empty() || names.count(f))
        c.pointers.push_back(object + "/" + EscapePointerToken(f));
    if (!c.pointers.empty()) out.push_back(std::move(c));
  }
  return out;
}

std::vector<FieldConstraint> PartSchemas::Constraints(
    const std::vector<std::string>& pointers) const {
  // Every object strictly above a pointer, once, in the order first met.
  std::vector<std::string> objects;
  for (const std::string& p : pointers) {
    std::vector<std::string> tokens = PointerTokens(p);
    std::string at;
    for (size_t i = 0; i < tokens.size(); ++i) {
      if (std::find(objects.begin(), objects.end(), at) == objects.end()) objects.push_back(at);
      at += "/" + EscapePointerToken(tokens[i]);
    }
  }
  std::vector<FieldConstraint> out;
  for (const std::string& object : objects) {
    std::string schema_path;
    const Json* node = NodeAt(object, &schema_path);
    if (!node || !node->is_object() || FieldNames(*node, true).empty()) continue;  // a list
    for (FieldConstraint& c : ConstraintsOf(*node, schema_path, object)) out.push_back(c);
    // An object split across parts whose presence a part may decide alone: its `required`
    // spans the parts (an optional object on the way, below the root). The items of a list
    // are there in every part that holds a column (the merge checks the lists line up).
    std::vector<std::string> tokens = PointerTokens(object);
    if (tokens.empty() || tokens.back() == kEachItem) continue;
    bool optional = false;
    const Json* parent = view_;
    for (const std::string& t : tokens) {
      if (t == kEachItem) {
        parent = SplittableItems(root_, *parent);
        if (!parent) break;
        continue;
      }
      optional = optional || !ListsRequired(*parent, t);
      const Json* props = parent->find("properties");
      const Json* sub = props && props->is_object() ? props->find(t) : nullptr;
      if (!sub) break;
      parent = &Deref(root_, *sub);
    }
    FieldConstraint req{schema_path + "/required", "required", object, {}, true};
    if (const Json* r = node->find("required"); optional && r && r->is_array())
      for (const Json& x : r->as_array())
        if (x.is_string()) req.pointers.push_back(object + "/" + EscapePointerToken(x.as_string()));
    if (!req.pointers.empty()) out.push_back(std::move(req));
  }
  return out;
}

std::vector<FieldConstraint> PartSchemas::CrossConstraints(
    const std::vector<std::vector<std::string>>& groups) const {
  std::vector<std::string> all;
  for (const auto& g : groups) all.insert(all.end(), g.begin(), g.end());
  std::vector<FieldConstraint> out;
  for (FieldConstraint& c : Constraints(all)) {
    // Kept in a part when one part holds every field it reads whole (for `required` across
    // parts: every piece of the object).
    bool kept = false;
    for (const auto& g : groups) {
      bool holds = true;
      if (c.spans_object) {
        for (const auto& other : groups)
          for (const std::string& q : other)
            if (&other != &g && PointerWithin(q, c.object)) holds = false;
      } else {
        for (const std::string& p : c.pointers) {
          bool in = false;
          for (const std::string& q : g) in = in || PointerWithin(p, q);
          holds = holds && in;
        }
      }
      kept = kept || holds;
    }
    if (!kept) out.push_back(std::move(c));
  }
  return out;
}

Json PartSchemas::BuildNode(const Json& s, const Selection& sel) const {
  auto each = sel.children.find(kEachItem);
  if (each == sel.children.end()) return BuildObject(s, sel);
  Json out = Json::MakeObject();
  for (const auto& [k, v] : s.as_object())
    if (k != "items" && k != "$defs" && k != "definitions") out.set(k, v);
  const Json* item = SplittableItems(root_, s);
  out.set("items", item ? BuildObject(*item, each->second) : Json::MakeObject());
  return out;
}

Json PartSchemas::BuildObject(const Json& s, const Selection& sel) const {
  Json out = Json::MakeObject();
  std::vector<std::string> names = FieldNames(s, true);
  auto whole = [&](const std::string& name) {
    auto it = sel.children.find(name);
    return it != sel.children.end() && it->second.whole;
  };
  // Constraints stay where every field they read is held whole.
  std::set<std::string> kept;
  for (const FieldConstraint& c : ConstraintsOf(s, "", "")) {
    bool holds = true;
    for (const std::string& p : c.pointers) holds = holds && whole(PointerTokens(p)[0]);
    if (holds) kept.insert(c.keyword);
  }
  for (const auto& [k, v] : s.as_object()) {
    if (IsRebuilt(k) || (IsConstraint(k) && !kept.count(k))) continue;
    out.set(k, v);
    if (k == "if")
      for (const char* branch : {"then", "else"})
        if (const Json* b = s.find(branch)) out.set(branch, *b);
  }
  out.set("type", Json("object"));
  Json props = Json::MakeObject();
  Json required = Json::MakeArray();
  for (const std::string& name : names) {
    auto it = sel.children.find(name);
    if (it == sel.children.end()) continue;
    Json sub = PropertySchema(s, name);
    if (std::vector<const Json*> patterns = PatternsFor(s, name); !patterns.empty()) {
      Json parts = Json::MakeArray();
      parts.push_back(std::move(sub));
      for (const Json* p : patterns) parts.push_back(*p);
      sub = Json(Json::Object{{"allOf", std::move(parts)}});
    }
    if (it->second.as_text) {
      sub = AsText(std::move(sub));
    } else if (!it->second.whole) {
      Json built = BuildNode(Deref(root_, sub), it->second);
      // The property's own annotations (beside a $ref) stay with it.
      if (sub.is_object())
        for (const auto& [k, v] : sub.as_object())
          if (IsAnnotationKeyword(k) && k != "$defs" && k != "definitions") built.set(k, v);
      sub = std::move(built);
    }
    props.set(name, std::move(sub));
    if (ListsRequired(s, name)) required.push_back(Json(name));
  }
  out.set("properties", std::move(props));
  if (required.size() > 0) out.set("required", std::move(required));
  out.set("additionalProperties", Json(false));
  return out;
}

Json PartSchemas::AsText(Json sub) const {
  Json out = Json::MakeObject();
  if (const Json* d = Deref(root_, sub).find("description"); d && d->is_string())
    out.set("description", *d);
  out.set(kJsonTextKeyword, Json(true));
  out.set("allOf", Json(Json::Array{std::move(sub)}));
  return out;
}

Json PartSchemas::Build(const std::vector<std::string>& pointers,
                        const std::vector<std::string>& as_text) const {
  Selection root;
  for (const std::string& p : pointers) {
    Selection* cur = &root;
    for (const std::string& t : PointerTokens(p)) cur = &cur->children[t];
    cur->whole = true;
    cur->as_text = std::find(as_text.begin(), as_text.end(), p) != as_text.end();
  }
  if (root.whole) return root_;
  Json part = BuildNode(*view_, root);
  for (const char* k : {"$schema", "$id", "id"})
    if (const Json* v = root_.find(k); v && !part.contains(k)) part.set(k, *v);
  DefsClosure closure(root_);
  closure.Scan(part);
  closure.AddTo(part);
  return part;
}

}  // namespace structure::pipeline
