#include "pipeline/generate/generate.h"

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "pipeline/generate/generate_internal.h"
#include "pipeline/generate/json_type.h"
#include "pipeline/generate/regex_sample.h"
#include "pipeline/generate/schema_merge.h"
#include "pipeline/generate/schema_ref.h"

namespace structure::pipeline {
namespace {

const char* const kAllTypes[] = {"string", "integer", "boolean", "number",
                                 "object", "array",   "null"};

class Generator {
 public:
  Generator(const Json& root, uint64_t seed, const GenerateOptions& options)
      : root_(root), rng_(seed ^ 0x9e3779b97f4a7c15ULL), opt_(options) {}

  Result<Json> Gen(const Json& schema, size_t depth) {
    if (++nodes_ > opt_.max_nodes) return InvalidArgument("generation budget exhausted");
    if (depth > opt_.max_depth * 3 + 16)
      return InvalidArgument("schema nests too deep to generate");
    Result<Json> flat = Flatten(schema);
    if (!flat.ok()) return flat.status();
    const Json& s = *flat;
    if (s.is_bool()) {
      if (!s.as_bool()) return InvalidArgument("false schema has no instance");
      return Json(static_cast<int64_t>(rng_() % 100));
    }
    if (!s.is_object()) return InvalidArgument("schema is not an object or boolean");
    if (const Json* c = s.find("const")) return *c;
    std::vector<std::string> types = Types(s);
    if (const Json* e = s.find("enum"); e && e->is_array()) {
      std::vector<const Json*> fit;
      for (const Json& v : e->as_array())
        if (types.empty() || std::any_of(types.begin(), types.end(),
                                         [&](const std::string& t) { return HasSchemaType(v, t); }))
          fit.push_back(&v);
      if (fit.empty()) return InvalidArgument("no enum value fits the type");
      return *fit[rng_() % fit.size()];
    }
    for (const char* key : {"anyOf", "oneOf"}) {
      const Json* u = s.find(key);
      if (!u || !u->is_array() || u->size() == 0) continue;
      Json rest = s;
      rest.erase(key);
      std::vector<size_t> order(u->size());
      for (size_t i = 0; i < order.size(); ++i) order[i] = i;
      std::shuffle(order.begin(), order.end(), rng_);
      Status last = InvalidArgument(std::string(key) + " has no branch");
      for (size_t i : order) {
        Result<Json> branch = Deref(u->as_array()[i]);
        if (!branch.ok()) {
          last = branch.status();
          continue;
        }
        Result<Json> r = Gen(MergeSchemas(rest, *branch, nullptr), depth);
        if (r.ok()) return r;
        last = r.status();
      }
      return last;
    }
    if (types.empty()) types = InferTypes(s);
    std::shuffle(types.begin(), types.end(), rng_);
    if (depth >= opt_.max_depth) {
      // Scalars first: they end the recursion.
      std::stable_sort(types.begin(), types.end(), [](const std::string& a, const std::string& b) {
        return (a == "object" || a == "array") < (b == "object" || b == "array");
      });
    }
    Status last = InvalidArgument("no type can be generated");
    for (const std::string& t : types) {
      Result<Json> r = GenTyped(s, t, depth);
      if (r.ok()) return r;
      last = r.status();
    }
    return last;
  }

 private:
  Result<Json> Deref(const Json& schema) {
    const Json* cur = &schema;
    Json merged;
    for (int hops = 0; hops < 32; ++hops) {
      const Json* ref = cur->is_object() ? cur->find("$ref") : nullptr;
      if (!ref || !ref->is_string()) return *cur;
      const Json* target = ResolveLocalRef(root_, ref->as_string());
      if (!target) return InvalidArgument("cannot resolve $ref " + ref->as_string());
      Json rest = *cur;
      rest.erase("$ref");
      bool only_annotations = true;
      for (const auto& [k, v] : rest.as_object())
        only_annotations = only_annotations && IsAnnotationKeyword(k);
      merged = only_annotations ? *target : MergeSchemas(*target, rest, nullptr);
      cur = &merged;
    }
    return InvalidArgument("$ref chain too long");
  }

  // Resolves $ref and folds allOf into one schema.
  Result<Json> Flatten(const Json& schema) {
    Result<Json> s = Deref(schema);
    if (!s.ok()) return s;
    Json out = std::move(*s);
    for (int round = 0; round < 16 && out.is_object() && out.contains("allOf"); ++round) {
      Json all = *out.find("allOf");
      out.erase("allOf");
      if (!all.is_array()) break;
      for (const Json& b : all.as_array()) {
        Result<Json> branch = Deref(b);
        if (!branch.ok()) return branch;
        out = MergeSchemas(out, *branch, nullptr);
        if (!out.is_object()) break;
      }
      Result<Json> again = Deref(out);
      if (!again.ok()) return again;
      out = std::move(*again);
    }
    return out;
  }

  static std::vector<std::string> Types(const Json& s) {
    std::vector<std::string> out;
    const Json* t = s.find("type");
    if (t && t->is_string()) out.push_back(t->as_string());
    if (t && t->is_array())
      for (const Json& x : t->as_array())
        if (x.is_string()) out.push_back(x.as_string());
    return out;
  }

  static std::vector<std::string> InferTypes(const Json& s) {
    for (const char* k : {"properties", "required", "additionalProperties", "patternProperties",
                          "minProperties", "maxProperties", "propertyNames"})
      if (s.contains(k)) return {"object"};
    for (const char* k :
         {"items", "prefixItems", "minItems", "maxItems", "contains", "uniqueItems"})
      if (s.contains(k)) return {"array"};
    for (const char* k : {"pattern", "minLength", "maxLength", "format"})
      if (s.contains(k)) return {"string"};
    for (const char* k :
         {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"})
      if (s.contains(k)) return {"number"};
    return {"string", "integer", "boolean"};
  }

  Result<Json> GenTyped(const Json& s, const std::string& t, size_t depth) {
    if (t == "null") return Json();
    if (t == "boolean") return Json(rng_() % 2 == 0);
    if (t == "string") return detail::GenerateString(s, rng_, opt_);
    if (t == "integer" || t == "number") return detail::GenerateNumber(s, t == "integer", rng_);
    if (t == "object") return GenObject(s, depth);
    if (t == "array") return GenArray(s, depth);
    return InvalidArgument("unknown type '" + t + "'");
  }

  size_t Count(const Json& s, const char* key, size_t fallback) {
    const Json* v = s.find(key);
    if (!v || !v->is_number() || v->as_double() < 0) return fallback;
    return v->as_double() > 1e6 ? 1000000 : static_cast<size_t>(v->as_double());
  }

  // The schema an undeclared key must satisfy: a matching patternProperties entry, else
  // additionalProperties (true when absent).
  Json SchemaForKey(const Json& s, const std::string& key) {
    if (const Json* pp = s.find("patternProperties"); pp && pp->is_object())
      for (const auto& [pat, sub] : pp->as_object())
        if (KeyMatches(pat, key)) return sub;
    if (const Json* ap = s.find("additionalProperties")) return *ap;
    return Json(true);
  }

  static bool KeyMatches(const std::string& pattern, const std::string& key);

  Result<std::string> NewKey(const Json& s, const Json& obj, size_t i) {
    for (int attempt = 0; attempt < 8; ++attempt) {
      std::string key;
      const Json* pp = s.find("patternProperties");
      const Json* names = s.find("propertyNames");
      const Json* ap = s.find("additionalProperties");
      bool closed = ap && ap->is_bool() && !ap->as_bool();
      if (pp && pp->is_object() && pp->size() > 0 && (closed || !ap || rng_() % 2 == 0)) {
        const auto& entry = pp->as_object()[rng_() % pp->size()];
        Result<std::string> k = SampleRegexMatch(entry.first, rng_(), 1, 24);
        if (!k.ok()) continue;
        key = *k;
      } else if (names && names->is_object()) {
        Result<Json> k = Gen(*names, 0);
        if (!k.ok() || !k->is_string()) continue;
        key = k->as_string();
      } else {
        key = "key" + std::to_string(i + attempt * 10);
      }
      if (!obj.contains(key)) return key;
    }
    return InvalidArgument("cannot invent a new property name");
  }

  Result<Json> GenObject(const Json& s, size_t depth) {
    Json obj = Json::MakeObject();
    const Json* props = s.find("properties");
    std::set<std::string> required;
    if (const Json* r = s.find("required"); r && r->is_array())
      for (const Json& x : r->as_array())
        if (x.is_string()) required.insert(x.as_string());
    size_t max_props = Count(s, "maxProperties", 1000000);
    size_t min_props = Count(s, "minProperties", 0);
    if (props && props->is_object()) {
      for (const auto& [k, sub] : props->as_object()) {
        bool req = required.count(k) > 0;
        if (sub.is_bool() && !sub.as_bool()) {
          if (req) return InvalidArgument("required property '" + k + "' is forbidden");
          continue;
        }
        bool want = req || (depth < opt_.max_depth && obj.size() < max_props &&
                            (rng_() % 1000) < opt_.optional_probability * 1000);
        if (!want && obj.size() + required.size() < min_props) want = true;
        if (!want) continue;
        Result<Json> v = Gen(sub, depth + 1);
        if (!v.ok()) {
          if (req) return v.status();
          continue;
        }
        obj.set(k, std::move(*v));
      }
    }
    for (const std::string& k : required) {
      if (obj.contains(k)) continue;
      Result<Json> v = Gen(SchemaForKey(s, k), depth + 1);
      if (!v.ok()) return v.status();
      obj.set(k, std::move(*v));
    }
    const Json* ap = s.find("additionalProperties");
    bool closed = ap && ap->is_bool() && !ap->as_bool();
    bool has_declared = props && props->is_object() && props->size() > 0;
    size_t extra = 0;
    if (!closed && (!has_declared || opt_.extra_properties) &&
        (s.contains("additionalProperties") || s.contains("patternProperties") ||
         opt_.extra_properties) &&
        depth < opt_.max_depth)
      extra = rng_() % (std::min<size_t>(opt_.max_array_items, 3) + 1);
    size_t target = std::max(min_props, obj.size() + extra);
    target = std::min(target, max_props);
    for (size_t i = 0; obj.size() < target; ++i) {
      if (i > target + 16) return InvalidArgument("cannot reach minProperties");
      Result<std::string> key = NewKey(s, obj, i);
      if (!key.ok()) return key.status();
      Result<Json> v = Gen(SchemaForKey(s, *key), depth + 1);
      if (!v.ok()) {
        if (obj.size() >= min_props) break;
        return v.status();
      }
      obj.set(*key, std::move(*v));
    }
    if (obj.size() < min_props) return InvalidArgument("cannot reach minProperties");
    return obj;
  }

  Result<Json> GenArray(const Json& s, size_t depth) {
    const Json* prefix = s.find("prefixItems");
    const Json* items = s.find("items");
    if (items && items->is_array()) {  // draft-04 tuple form
      prefix = items;
      items = s.find("additionalItems");
    }
    size_t prefix_n = prefix && prefix->is_array() ? prefix->size() : 0;
    size_t min_items = Count(s, "minItems", 0);
    size_t max_items = Count(s, "maxItems", 1000000);
    if (items && items->is_bool() && !items->as_bool()) max_items = std::min(max_items, prefix_n);
    if (min_items > max_items) return InvalidArgument("minItems is greater than maxItems");
    size_t soft = std::min(max_items, std::max(min_items, opt_.max_array_items));
    size_t n = depth >= opt_.max_depth ? min_items : min_items + rng_() % (soft - min_items + 1);
    const Json* contains = s.find("contains");
    size_t need_contains = contains ? std::max<size_t>(Count(s, "minContains", 1), 0) : 0;
    n = std::max(n, std::min(need_contains, max_items));
    bool unique = s.find("uniqueItems") && s.find("uniqueItems")->is_bool() &&
                  s.find("uniqueItems")->as_bool();
    Json arr = Json::MakeArray();
    for (size_t i = 0; i < n; ++i) {
      Json sub = i < prefix_n ? prefix->as_array()[i] : (items ? *items : Json(true));
      if (i >= prefix_n && i < prefix_n + need_contains && contains)
        sub = MergeSchemas(sub, *contains, nullptr);
      Result<Json> v = InvalidArgument("no item");
      for (int attempt = 0; attempt < 8; ++attempt) {
        v = Gen(sub, depth + 1);
        if (!v.ok()) break;
        bool dup = false;
        if (unique)
          for (const Json& x : arr.as_array()) dup = dup || x == *v;
        if (!dup) break;
        v = InvalidArgument("cannot generate unique items");
      }
      if (!v.ok()) {
        if (arr.size() >= min_items && i >= prefix_n + need_contains) break;
        return v.status();
      }
      arr.push_back(std::move(*v));
    }
    return arr;
  }

  const Json& root_;
  std::mt19937_64 rng_;
  GenerateOptions opt_;
  size_t nodes_ = 0;
};

}  // namespace
}  // namespace structure::pipeline

#include <re2/re2.h>

namespace structure::pipeline {
namespace {
bool Generator::KeyMatches(const std::string& pattern, const std::string& key) {
  RE2::Options o;
  o.set_log_errors(false);
  RE2 re(pattern, o);
  return re.ok() && RE2::PartialMatch(key, re);
}
}  // namespace

Result<Json> GenerateInstance(const Json& schema, uint64_t seed, const GenerateOptions& options) {
  Generator g(schema, seed, options);
  return g.Gen(schema, 0);
}

}  // namespace structure::pipeline
