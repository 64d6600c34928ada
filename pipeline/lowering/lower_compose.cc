// Lowering of composition: $ref (inlined, or kept as a $defs entry when the profile allows),
// allOf merges, anyOf/oneOf unions, nullable types, and the open fallbacks (any value, opaque
// JSON text) for what a profile cannot express.
#include <algorithm>

#include "base/json_pointer.h"
#include "pipeline/generate/generate.h"
#include "pipeline/generate/schema_merge.h"
#include "pipeline/generate/schema_ref.h"
#include "pipeline/lowering/lower_internal.h"

namespace structure::pipeline::detail {
Out Lowerer::Ref(const Json& s, const std::string& path, int depth) {
  const Json* ref = s.find("$ref");
  const Json* target = ref->is_string() ? ResolveLocalRef(root_, ref->as_string()) : nullptr;
  Json rest = s;
  rest.erase("$ref");
  bool only_annotations = true;
  for (const auto& [k, v] : rest.as_object())
    only_annotations = only_annotations && IsAnnotationKeyword(k);
  if (!target) {
    Drop(path, "$ref", *ref, nullptr);
    return Node(rest, path, depth + 1);
  }
  if (!only_annotations) return Node(MergeSchemas(*target, rest, nullptr), path, depth + 1);
  std::string target_path = ref->as_string();
  if (size_t h = target_path.find('#'); h != std::string::npos)
    target_path = target_path.substr(h + 1);
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
    for (char c : target_path.substr(
             target_path.rfind('/') == std::string::npos ? 0 : target_path.rfind('/') + 1))
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
    for (const Unmerged& u : unmerged)
      Drop(path + "/allOf/" + std::to_string(i), u.keyword, u.value, nullptr);
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
    if (only.schema.is_object() && !only.schema.contains("description") &&
        annotations.contains("description") && !only.schema.contains("$ref"))
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
      out.set("description",
              Json(std::string(s.find("description") && s.find("description")->is_string()
                                   ? s.find("description")->as_string() + " "
                                   : "") +
                   std::string(kJsonTextNote)));
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
    if (const Json* d = s.is_object() ? s.find("description") : nullptr; d && d->is_string())
      desc = d->as_string() + " ";
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
    for (const Json& b : s.find("anyOf")->as_array())
      has_null = has_null || b == Json(Json::Object{{"type", Json("null")}});
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

}  // namespace structure::pipeline::detail
