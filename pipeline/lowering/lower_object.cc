// Lowering of objects (closing, all-required, open maps) and arrays (tuples, bounds).
#include <set>

#include <re2/re2.h>

#include "base/json_pointer.h"
#include "pipeline/generate/regex_sample.h"
#include "pipeline/lowering/lower_internal.h"

namespace structure::pipeline::detail {
namespace {

bool KeyMatches(const std::string& pattern, const std::string& key) {
  RE2::Options o;
  o.set_log_errors(false);
  RE2 re(pattern, o);
  return re.ok() && RE2::PartialMatch(key, re);
}

Json TypeOnly(const char* t) { return Json(Json::Object{{"type", Json(t)}}); }

}  // namespace

Out Lowerer::Object(const Json& s, const std::string& path, int depth, Json out) {
  const Json* props = s.find("properties");
  if (props && !props->is_object()) props = nullptr;
  std::vector<std::string> required;
  if (const Json* r = s.find("required"); r && r->is_array())
    for (const Json& x : r->as_array())
      if (x.is_string() &&
          std::find(required.begin(), required.end(), x.as_string()) == required.end())
        required.push_back(x.as_string());
  const Json* ap = s.find("additionalProperties");
  const Json* pp = s.find("patternProperties");
  if (pp && !pp->is_object()) pp = nullptr;
  bool closed = ap && ap->is_bool() && !ap->as_bool();
  bool declared = (props && props->size() > 0) || !required.empty();
  if (!declared && !closed) return Map(s, path, depth, std::move(out));

  LiftNode node;
  node.kind = LiftNode::Kind::kObject;
  bool needs_plan = false;
  Json pprops = Json::MakeObject();
  Json preq = Json::MakeArray();
  auto is_required = [&](const std::string& k) {
    return std::find(required.begin(), required.end(), k) != required.end();
  };
  if (props) {
    for (const auto& [k, sub] : props->as_object()) {
      bool req = is_required(k);
      Out o = Node(sub, path + "/properties/" + EscapePointerToken(k), depth + 1);
      if (o.never) {
        if (req) return Out{Json(), -1, true};
        continue;
      }
      LiftNode::Property prop{k, o.plan, false};
      // Optional -> required + nullable: always where the profile wants every property
      // required, else for the first ones past the optional limit (trading for unions).
      bool as_null = !req && (p_.all_required || optional_as_null_ < mode_.optional_as_null);
      if (as_null) {
        if (!p_.all_required) ++optional_as_null_;
        o = Nullable(std::move(o));
        prop.null_is_absent = true;
      }
      needs_plan = needs_plan || prop.null_is_absent || o.plan != -1;
      pprops.set(k, std::move(o.schema));
      if (req || as_null) preq.push_back(Json(k));
      node.properties.push_back(std::move(prop));
    }
  }
  for (const std::string& k : required) {
    if (pprops.contains(k)) continue;
    if (props && props->contains(k)) continue;  // forbidden optional dropped above; cannot happen
    Json key_schema = Json(true);
    bool matched = false;
    if (pp)
      for (const auto& [pat, sub] : pp->as_object())
        if (!matched && KeyMatches(pat, k)) key_schema = sub, matched = true;
    if (!matched && ap) key_schema = *ap;
    Out o = Node(key_schema, path + "/required", depth + 1);
    if (o.never) return Out{Json(), -1, true};
    needs_plan = needs_plan || o.plan != -1;
    pprops.set(k, std::move(o.schema));
    preq.push_back(Json(k));
    node.properties.push_back({k, o.plan, false});
  }
  out.set("properties", std::move(pprops));
  if (preq.size() > 0 || p_.all_required || p_.closed_objects) out.set("required", std::move(preq));
  if (ap && ap->is_object() && p_.additional_properties_schema && !p_.closed_objects) {
    Out o = Node(*ap, path + "/additionalProperties", depth + 1);
    if (!o.never) {
      out.set("additionalProperties", std::move(o.schema));
      node.extra = o.plan;
      needs_plan = needs_plan || o.plan != -1;
    } else if (Accepts("additionalProperties")) {
      out.set("additionalProperties", Json(false));
    }
  } else if (Accepts("additionalProperties") && (closed || p_.closed_objects)) {
    // Declared properties are the intended shape: an implicitly open object is closed.
    out.set("additionalProperties", Json(false));
  }
  for (const char* k :
       {"patternProperties", "propertyNames", "minProperties", "maxProperties", "dependentRequired",
        "dependentSchemas", "dependencies", "unevaluatedProperties"}) {
    const Json* v = s.find(k);
    if (!v) continue;
    if ((std::string_view(k) == "minProperties" || std::string_view(k) == "maxProperties") &&
        Accepts(k) && v->is_number()) {
      out.set(k, *v);
    } else {
      Drop(path, k, *v, &out);
    }
  }
  return Out{std::move(out), needs_plan ? AddPlan(std::move(node)) : -1};
}

Out Lowerer::Map(const Json& s, const std::string& path, int depth, Json out) {
  const Json* ap = s.find("additionalProperties");
  const Json* pp = s.find("patternProperties");
  if (pp && (!pp->is_object() || pp->size() == 0)) pp = nullptr;
  Json value_schema = ap ? *ap : Json(true);
  std::string key_pattern;
  if (pp && pp->size() == 1 && !ap) {
    key_pattern = pp->as_object()[0].first;
    value_schema = pp->as_object()[0].second;
  } else if (pp) {
    Json branches = Json::MakeArray();
    for (const auto& [pat, sub] : pp->as_object()) branches.push_back(sub);
    if (ap) branches.push_back(*ap);
    value_schema = Json(Json::Object{{"anyOf", std::move(branches)}});
    Drop(path, "patternProperties", *pp, &out);
  }
  if (const Json* pn = s.find("propertyNames"); pn && pn->is_object()) {
    const Json* pat = pn->find("pattern");
    if (key_pattern.empty() && pat && pat->is_string() && pn->size() == 1) {
      key_pattern = pat->as_string();
    } else {
      Drop(path, "propertyNames", *pn, &out);
    }
  }
  for (const char* k :
       {"dependentRequired", "dependentSchemas", "dependencies", "unevaluatedProperties"})
    if (const Json* v = s.find(k)) Drop(path, k, *v, &out);
  if (p_.additional_properties_schema && !p_.closed_objects) {
    Out o = Node(value_schema, path + "/additionalProperties", depth + 1);
    if (o.never) {
      out.set("properties", Json::MakeObject());
      if (Accepts("additionalProperties")) out.set("additionalProperties", Json(false));
      return Out{std::move(out)};
    }
    if (!(o.schema.is_object() && o.schema.size() == 0))
      out.set("additionalProperties", std::move(o.schema));
    if (!key_pattern.empty())
      Drop(path, pp ? "patternProperties" : "propertyNames", pp ? *pp : *s.find("propertyNames"),
           &out);
    for (const char* k : {"minProperties", "maxProperties"})
      if (const Json* v = s.find(k)) {
        if (Accepts(k)) {
          out.set(k, *v);
        } else {
          Drop(path, k, *v, &out);
        }
      }
    if (o.plan == -1) return Out{std::move(out)};
    LiftNode node;
    node.kind = LiftNode::Kind::kObject;
    node.extra = o.plan;
    return Out{std::move(out), AddPlan(std::move(node))};
  }
  // Closed-object providers: the map travels as [{"key": k, "value": v}, ...].
  Out o = Node(value_schema, path + "/additionalProperties", depth + 1);
  Json key = TypeOnly("string");
  if (!key_pattern.empty()) {
    if (Accepts("pattern") && IsSimpleRegex(key_pattern, p_.pattern_max_count) &&
        (!p_.pattern_anchored || (key_pattern.front() == '^' && key_pattern.back() == '$'))) {
      key.set("pattern", Json(key_pattern));
    } else {
      Drop(path, pp ? "patternProperties" : "propertyNames", pp ? *pp : *s.find("propertyNames"),
           &out);
    }
  }
  Json item = TypeOnly("object");
  Json props = Json::MakeObject();
  props.set("key", std::move(key));
  if (o.never) o.schema = TypeOnly("null");
  props.set("value", std::move(o.schema));
  item.set("properties", std::move(props));
  item.set("required", Json(Json::Array{Json("key"), Json("value")}));
  if (Accepts("additionalProperties")) item.set("additionalProperties", Json(false));
  Json arr = TypeOnly("array");
  if (Accepts("description")) {
    std::string desc = out.find("description") ? out.find("description")->as_string() + " " : "";
    arr.set("description",
            Json(desc + "(An object written as a list of key/value entries with distinct keys.)"));
  }
  arr.set("items", std::move(item));
  if (o.never) arr.set("maxItems", Json(0));
  for (auto [from, to] :
       {std::pair{"minProperties", "minItems"}, std::pair{"maxProperties", "maxItems"}}) {
    const Json* v = s.find(from);
    if (!v) continue;
    bool keep = Accepts(to) && v->is_number() &&
                !(std::string_view(to) == "minItems" && p_.max_min_items &&
                  v->as_double() > p_.max_min_items);
    if (keep) {
      arr.set(to, *v);
    } else {
      Drop(path, from, *v, &arr);
    }
  }
  LiftNode node;
  node.kind = LiftNode::Kind::kMap;
  node.extra = o.plan;
  return Out{std::move(arr), AddPlan(std::move(node))};
}

Out Lowerer::Array(const Json& s, const std::string& path, int depth, Json out) {
  const Json* prefix = s.find("prefixItems");
  if (prefix && !prefix->is_array()) prefix = nullptr;
  const Json* items = s.find("items");
  bool items_false = items && items->is_bool() && !items->as_bool();
  LiftNode node;
  node.kind = LiftNode::Kind::kArray;
  bool needs_plan = false;
  size_t max_items_from_tuple = SIZE_MAX;
  if (prefix && prefix->size() > 0 && Accepts("prefixItems")) {
    Json lowered = Json::MakeArray();
    for (size_t i = 0; i < prefix->size(); ++i) {
      Out o = Node(prefix->as_array()[i], path + "/prefixItems/" + std::to_string(i), depth + 1);
      if (o.never) {
        max_items_from_tuple = i;
        break;
      }
      node.prefix.push_back(o.plan);
      needs_plan = needs_plan || o.plan != -1;
      lowered.push_back(std::move(o.schema));
    }
    out.set("prefixItems", std::move(lowered));
    if (items_false) max_items_from_tuple = std::min(max_items_from_tuple, prefix->size());
  } else if (prefix && prefix->size() > 0) {
    // No tuple support: items becomes the union of every position's schema (a relaxation).
    Json branches = Json::MakeArray();
    for (const Json& b : prefix->as_array()) branches.push_back(b);
    if (!items_false) branches.push_back(items ? *items : Json(true));
    Drop(path, "prefixItems", *prefix, &out);
    if (items_false) max_items_from_tuple = prefix->size();
    Out o =
        Node(Json(Json::Object{{"anyOf", std::move(branches)}}), path + "/prefixItems", depth + 1);
    node.items = o.plan;
    needs_plan = o.plan != -1;
    out.set("items", std::move(o.schema));
  }
  if (!out.contains("items") && !items_false) {
    Out o = Node(items ? *items : Json(true), path + "/items", depth + 1);
    if (o.never) {
      max_items_from_tuple = std::min(max_items_from_tuple, node.prefix.size());
      o = Node(Json(true), path + "/items", depth + 1);
    }
    node.items = o.plan;
    needs_plan = needs_plan || o.plan != -1;
    out.set("items", std::move(o.schema));
  } else if (!out.contains("items")) {
    Out o = Node(Json(true), path + "/items", depth + 1);
    out.set("items", std::move(o.schema));
    node.items = o.plan;
    needs_plan = needs_plan || o.plan != -1;
  }
  for (const char* k : {"minItems", "maxItems"}) {
    const Json* v = s.find(k);
    if (!v) continue;
    bool keep = Accepts(k) && v->is_number();
    if (keep && std::string_view(k) == "minItems" && p_.max_min_items &&
        v->as_double() > p_.max_min_items) {
      out.set(k, Json(static_cast<int64_t>(p_.max_min_items)));
      Drop(path, k, *v, &out);
      continue;
    }
    if (keep) {
      out.set(k, *v);
    } else {
      Drop(path, k, *v, &out);
    }
  }
  if (max_items_from_tuple != SIZE_MAX) {
    const Json* cur = out.find("maxItems");
    if (Accepts("maxItems") && (!cur || cur->as_double() > max_items_from_tuple)) {
      out.set("maxItems", Json(static_cast<int64_t>(max_items_from_tuple)));
    } else if (!Accepts("maxItems")) {
      Drop(path, "items", Json(false), &out);
    }
  }
  for (const char* k :
       {"uniqueItems", "contains", "minContains", "maxContains", "unevaluatedItems"})
    if (const Json* v = s.find(k)) {
      if (std::string_view(k) == "uniqueItems" && v->is_bool() && !v->as_bool()) continue;
      Drop(path, k, *v, &out);
    }
  return Out{std::move(out), needs_plan ? AddPlan(std::move(node)) : -1};
}

}  // namespace structure::pipeline::detail
