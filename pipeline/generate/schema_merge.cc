#include "pipeline/generate/schema_merge.h"

#include <algorithm>
#include <set>
#include <string_view>

namespace structure::pipeline {
namespace {

std::vector<std::string> TypeList(const Json& t) {
  std::vector<std::string> out;
  if (t.is_string()) out.push_back(t.as_string());
  if (t.is_array())
    for (const Json& x : t.as_array())
      if (x.is_string()) out.push_back(x.as_string());
  return out;
}

Json IntersectTypes(const Json& a, const Json& b) {
  std::vector<std::string> ta = TypeList(a), tb = TypeList(b), out;
  auto has = [](const std::vector<std::string>& v, std::string_view s) {
    return std::find(v.begin(), v.end(), s) != v.end();
  };
  for (const std::string& x : ta) {
    if (has(tb, x)) {
      out.push_back(x);
    } else if (x == "integer" && has(tb, "number")) {
      out.push_back("integer");
    } else if (x == "number" && has(tb, "integer")) {
      out.push_back("integer");
    }
  }
  std::vector<std::string> dedup;
  for (const std::string& x : out)
    if (!has(dedup, x)) dedup.push_back(x);
  if (dedup.size() == 1) return Json(dedup[0]);
  Json arr = Json::MakeArray();
  for (const std::string& x : dedup) arr.push_back(Json(x));
  return arr;
}

Json AllOf(const Json& x, const Json& y) {
  if (x == y) return x;
  if (x.is_bool() && x.as_bool()) return y;
  if (y.is_bool() && y.as_bool()) return x;
  if ((x.is_bool() && !x.as_bool()) || (y.is_bool() && !y.as_bool())) return Json(false);
  Json out = Json::MakeObject();
  Json list = Json::MakeArray();
  list.push_back(x);
  list.push_back(y);
  out.set("allOf", std::move(list));
  return out;
}

bool IsLowerBound(std::string_view k) {
  return k == "minimum" || k == "minLength" || k == "minItems" || k == "minProperties" ||
         k == "minContains";
}
bool IsUpperBound(std::string_view k) {
  return k == "maximum" || k == "maxLength" || k == "maxItems" || k == "maxProperties" ||
         k == "maxContains";
}

}  // namespace

bool IsAnnotationKeyword(std::string_view k) {
  return k == "title" || k == "description" || k == "examples" || k == "$comment" ||
         k == "default" || k == "deprecated" || k == "readOnly" || k == "writeOnly" ||
         k == "$schema" || k == "$id" || k == "id" || k == "$anchor" || k == "$defs" ||
         k == "definitions" || k == "$vocabulary" || k == "$dynamicAnchor" ||
         k == "contentMediaType" || k == "contentEncoding" ||
         (k.size() > 2 && k.substr(0, 2) == "x-");
}

Json MergeSchemas(const Json& a, const Json& b, std::vector<Unmerged>* unmerged) {
  if (a.is_bool()) return a.as_bool() ? b : Json(false);
  if (b.is_bool()) return b.as_bool() ? a : Json(false);
  if (!a.is_object() || !b.is_object()) return a;
  Json m = a;
  auto drop = [&](const std::string& k, const Json& v) {
    if (unmerged) unmerged->push_back({k, v});
  };
  // Properties need both sides' additionalProperties, so they are merged as a group.
  const Json* pa = a.find("properties");
  const Json* pb = b.find("properties");
  const Json* aa = a.find("additionalProperties");
  const Json* ab = b.find("additionalProperties");
  bool pattern_a = a.contains("patternProperties"), pattern_b = b.contains("patternProperties");
  if (pa || pb) {
    Json props = Json::MakeObject();
    std::set<std::string> seen;
    auto side = [&](const Json* p, const Json* addl, bool has_pattern, const std::string& key) {
      if (p && p->is_object())
        if (const Json* s = p->find(key)) return *s;
      if (addl && !has_pattern) return *addl;
      return Json(true);
    };
    for (const Json* p : {pa, pb}) {
      if (!p || !p->is_object()) continue;
      for (const auto& [k, v] : p->as_object()) {
        if (!seen.insert(k).second) continue;
        props.set(k, AllOf(side(pa, aa, pattern_a, k), side(pb, ab, pattern_b, k)));
      }
    }
    m.set("properties", std::move(props));
  }
  for (const auto& [k, vb] : b.as_object()) {
    if (k == "properties") continue;
    const Json* va = a.find(k);
    if (!va) {
      m.set(k, vb);
      continue;
    }
    if (*va == vb) continue;
    if (IsAnnotationKeyword(k)) continue;
    if (k == "type") {
      Json t = IntersectTypes(*va, vb);
      if (t.is_array() && t.size() == 0) return Json(false);
      m.set(k, std::move(t));
    } else if (k == "required") {
      Json req = *va;
      if (vb.is_array() && req.is_array())
        for (const Json& r : vb.as_array()) {
          bool dup = false;
          for (const Json& x : req.as_array()) dup = dup || x == r;
          if (!dup) req.push_back(r);
        }
      m.set(k, std::move(req));
    } else if (k == "enum" && va->is_array() && vb.is_array()) {
      Json out = Json::MakeArray();
      for (const Json& x : va->as_array())
        for (const Json& y : vb.as_array())
          if (x == y) {
            out.push_back(x);
            break;
          }
      if (out.size() == 0) return Json(false);
      m.set(k, std::move(out));
    } else if ((IsLowerBound(k) || k == "exclusiveMinimum") && va->is_number() && vb.is_number()) {
      m.set(k, va->as_double() >= vb.as_double() ? *va : vb);
    } else if ((IsUpperBound(k) || k == "exclusiveMaximum") && va->is_number() && vb.is_number()) {
      m.set(k, va->as_double() <= vb.as_double() ? *va : vb);
    } else if (k == "uniqueItems" && vb.is_bool()) {
      m.set(k, Json(vb.as_bool() || (va->is_bool() && va->as_bool())));
    } else if (k == "additionalProperties" || k == "items" || k == "contains" ||
               k == "propertyNames" || k == "unevaluatedProperties" || k == "unevaluatedItems") {
      m.set(k, AllOf(*va, vb));
    } else if (k == "allOf" && va->is_array() && vb.is_array()) {
      Json all = *va;
      for (const Json& x : vb.as_array()) all.push_back(x);
      m.set(k, std::move(all));
    } else {
      drop(k, vb);
    }
  }
  return m;
}

}  // namespace structure::pipeline
