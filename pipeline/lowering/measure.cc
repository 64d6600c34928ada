#include "pipeline/lowering/measure.h"

#include <algorithm>
#include <map>
#include <set>

#include "pipeline/generate/schema_ref.h"

namespace structure::pipeline {
namespace {

class Counter {
 public:
  explicit Counter(const Json& root) : root_(root) {}

  // Returns the nesting depth below s, following $ref (a cycle counts once); counts the
  // measures of s itself when `count` (a $ref target is counted from the root's $defs).
  size_t Walk(const Json& s, bool count) {
    if (!s.is_object()) return 0;
    if (const Json* r = s.find("$ref"); r && r->is_string()) {
      if (count) ++m_.grammar;
      const Json* target = ResolveLocalRef(root_, r->as_string());
      if (!target || visiting_.count(target)) return 0;
      auto memo = depth_.find(target);
      if (memo != depth_.end()) return memo->second;
      visiting_.insert(target);
      size_t d = Walk(*target, false);
      visiting_.erase(target);
      depth_[target] = d;
      return d;
    }
    if (count) ++m_.grammar;
    const Json* t = s.find("type");
    if (count && ((t && t->is_array()) || s.contains("anyOf"))) ++m_.unions;
    if (const Json* e = s.find("enum"); count && e && e->is_array()) {
      m_.enum_values += e->size();
      m_.grammar += e->size();
      for (const Json& v : e->as_array())
        if (v.is_string()) m_.budget += v.as_string().size();
    }
    if (const Json* k = s.find("const"); count && k && k->is_string())
      m_.budget += k->as_string().size();
    size_t below = 0;
    bool container = false;
    if (const Json* p = s.find("properties"); p && p->is_object()) {
      container = true;
      std::set<std::string_view> required;
      if (const Json* req = s.find("required"); req && req->is_array())
        for (const Json& x : req->as_array())
          if (x.is_string()) required.insert(x.as_string());
      for (const auto& [name, sub] : p->as_object()) {
        if (count) {
          ++m_.properties;
          m_.budget += name.size();
          if (!required.count(name)) ++m_.optional, ++m_.grammar;
          if (!DeclaresProperties(sub, 0)) ++m_.fields;
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
      for (const Json& sub : any->as_array()) below = std::max(below, Walk(sub, count));
    if (t && t->is_string() && (t->as_string() == "object" || t->as_string() == "array"))
      container = true;
    return below + (container ? 1 : 0);
  }

  SchemaMeasures& measures() { return m_; }

 private:
  // True when s (through $refs and union branches) is an object with declared properties: its
  // properties are the fields, not s itself.
  bool DeclaresProperties(const Json& s, int hops) const {
    if (!s.is_object() || hops > 8) return false;
    if (const Json* p = s.find("properties"); p && p->is_object() && p->size() > 0) return true;
    if (const Json* r = s.find("$ref"); r && r->is_string())
      if (const Json* target = ResolveLocalRef(root_, r->as_string()))
        return DeclaresProperties(*target, hops + 1);
    if (const Json* any = s.find("anyOf"); any && any->is_array())
      for (const Json& b : any->as_array())
        if (DeclaresProperties(b, hops + 1)) return true;
    return false;
  }

  const Json& root_;
  SchemaMeasures m_;
  std::map<const Json*, size_t> depth_;
  std::set<const Json*> visiting_;
};

struct LimitInfo {
  SizeLimit limit;
  const char* name;
  size_t SchemaMeasures::*measure;
  size_t Profile::*bound;
};

// In the order they are reported.
const LimitInfo kLimits[] = {
    {SizeLimit::kDepth, "nesting depth", &SchemaMeasures::depth, &Profile::max_depth},
    {SizeLimit::kProperties, "property count", &SchemaMeasures::properties,
     &Profile::max_properties},
    {SizeLimit::kEnumValues, "enum value count", &SchemaMeasures::enum_values,
     &Profile::max_enum_values},
    {SizeLimit::kStringBudget, "string budget", &SchemaMeasures::budget,
     &Profile::max_string_budget},
    {SizeLimit::kOptional, "optional property count", &SchemaMeasures::optional,
     &Profile::max_optional},
    {SizeLimit::kUnions, "union count", &SchemaMeasures::unions, &Profile::max_unions},
    {SizeLimit::kGrammar, "grammar size", &SchemaMeasures::grammar, &Profile::max_grammar_size},
    {SizeLimit::kFields, "field count", &SchemaMeasures::fields, &Profile::max_fields_per_call},
};

const LimitInfo* Info(SizeLimit limit) {
  for (const LimitInfo& i : kLimits)
    if (i.limit == limit) return &i;
  return nullptr;
}

}  // namespace

SchemaMeasures MeasureSchema(const Json& wire) {
  Counter counter(wire);
  size_t depth = counter.Walk(wire, true);
  if (const Json* defs = wire.find("$defs"); defs && defs->is_object())
    for (const auto& [name, sub] : defs->as_object()) {
      counter.measures().budget += name.size();
      counter.Walk(sub, true);
    }
  SchemaMeasures m = counter.measures();
  m.depth = depth;
  return m;
}

size_t MeasureOf(const SchemaMeasures& m, SizeLimit limit) {
  const LimitInfo* i = Info(limit);
  return i ? m.*(i->measure) : 0;
}

SchemaMeasures Sum(SchemaMeasures a, const SchemaMeasures& b) {
  for (const LimitInfo& i : kLimits) {
    size_t& x = a.*(i.measure);
    x = i.limit == SizeLimit::kDepth ? std::max(x, b.*(i.measure)) : x + b.*(i.measure);
  }
  return a;
}

SchemaMeasures Difference(SchemaMeasures a, const SchemaMeasures& b) {
  for (const LimitInfo& i : kLimits) {
    size_t& x = a.*(i.measure);
    if (i.limit != SizeLimit::kDepth) x -= std::min(x, b.*(i.measure));
  }
  return a;
}

size_t BoundOf(const Profile& p, SizeLimit limit) {
  const LimitInfo* i = Info(limit);
  return i ? p.*(i->bound) : 0;
}

const char* SizeLimitName(SizeLimit limit) {
  const LimitInfo* i = Info(limit);
  return i ? i->name : "none";
}

LimitHit FirstExceeded(const SchemaMeasures& m, const Profile& p) {
  for (const LimitInfo& i : kLimits) {
    if (i.limit == SizeLimit::kFields) continue;  // the provider takes it; a split may not
    size_t value = m.*(i.measure), bound = p.*(i.bound);
    if (bound == 0 || value <= bound) continue;
    return LimitHit{i.limit, value, bound,
                    std::string(i.name) + " " + std::to_string(value) +
                        " exceeds the provider limit of " + std::to_string(bound)};
  }
  return LimitHit{};
}

}  // namespace structure::pipeline
