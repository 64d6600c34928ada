// Size measures of a provider schema against the profile's limits.
#include <algorithm>
#include <map>

#include "pipeline/generate/schema_ref.h"
#include "pipeline/lowering/lower_internal.h"

namespace structure::pipeline::detail {
namespace {

struct Counts {
  size_t properties = 0, enum_values = 0, budget = 0, optional = 0, unions = 0;
};

class Counter {
 public:
  explicit Counter(const Json& root) : root_(root) {}

  // Returns the nesting depth below s, following $ref (a cycle counts once).
  size_t Walk(const Json& s, bool count) {
    if (!s.is_object()) return 0;
    size_t below = 0;
    if (const Json* r = s.find("$ref"); r && r->is_string()) {
      const Json* target = ResolveLocalRef(root_, r->as_string());
      if (target && !visiting_.count(target)) {
        auto memo = depth_.find(target);
        if (memo != depth_.end()) return memo->second;
        visiting_[target] = true;
        size_t d = Walk(*target, false);
        visiting_.erase(target);
        depth_[target] = d;
        return d;
      }
      return 0;
    }
    const Json* t = s.find("type");
    if (count && t && (t->is_array() || s.contains("anyOf"))) ++c_.unions;
    if (count && !t && s.contains("anyOf")) ++c_.unions;
    if (const Json* e = s.find("enum"); count && e && e->is_array()) {
      c_.enum_values += e->size();
      for (const Json& v : e->as_array())
        if (v.is_string()) c_.budget += v.as_string().size();
    }
    if (const Json* k = s.find("const"); count && k && k->is_string())
      c_.budget += k->as_string().size();
    bool container = false;
    if (const Json* p = s.find("properties"); p && p->is_object()) {
      container = true;
      const Json* req = s.find("required");
      for (const auto& [name, sub] : p->as_object()) {
        if (count) {
          ++c_.properties;
          c_.budget += name.size();
          bool is_req = false;
          if (req && req->is_array())
            for (const Json& x : req->as_array())
              is_req = is_req || (x.is_string() && x.as_string() == name);
          if (!is_req) ++c_.optional;
        }
        below = std::max(below, Walk(sub, count));
      }
    }
    for (const char* k : {"items", "additionalProperties"})
      if (const Json* sub = s.find(k); sub && sub->is_object()) {
        container = true;
        below = std::max(below, Walk(*sub, count));
      }
    if (const Json* pre = s.find("prefixItems"); pre && pre->is_array()) {
      container = true;
      for (const Json& sub : pre->as_array()) below = std::max(below, Walk(sub, count));
    }
    if (const Json* any = s.find("anyOf"); any && any->is_array())
      for (const Json& sub : any->as_array())
        below = std::max(below, Walk(sub, count) - (container ? 0 : 0));
    if (t && ((t->is_string() && (t->as_string() == "object" || t->as_string() == "array"))))
      container = true;
    return below + (container ? 1 : 0);
  }

  Counts& counts() { return c_; }

 private:
  const Json& root_;
  Counts c_;
  std::map<const Json*, size_t> depth_;
  std::map<const Json*, bool> visiting_;
};

}  // namespace

LimitExceeded ExceededLimit(const Json& wire, const Profile& p) {
  Counter counter(wire);
  size_t depth = counter.Walk(wire, true);
  if (const Json* defs = wire.find("$defs"); defs && defs->is_object())
    for (const auto& [name, sub] : defs->as_object()) {
      counter.counts().budget += name.size();
      counter.Walk(sub, true);
    }
  const Counts& c = counter.counts();
  auto over = [](size_t v, size_t limit) { return limit && v > limit; };
  auto say = [](Limit kind, const char* what, size_t v, size_t limit) {
    return LimitExceeded{kind, std::string(what) + " " + std::to_string(v) +
                                   " exceeds the provider limit of " + std::to_string(limit)};
  };
  if (over(depth, p.max_depth)) return say(Limit::kDepth, "nesting depth", depth, p.max_depth);
  if (over(c.properties, p.max_properties))
    return say(Limit::kProperties, "property count", c.properties, p.max_properties);
  if (over(c.enum_values, p.max_enum_values))
    return say(Limit::kEnumValues, "enum value count", c.enum_values, p.max_enum_values);
  if (over(c.budget, p.max_string_budget))
    return say(Limit::kStringBudget, "string budget", c.budget, p.max_string_budget);
  if (over(c.optional, p.max_optional))
    return say(Limit::kOptional, "optional property count", c.optional, p.max_optional);
  if (over(c.unions, p.max_unions))
    return say(Limit::kUnions, "union count", c.unions, p.max_unions);
  return {};
}

}  // namespace structure::pipeline::detail
