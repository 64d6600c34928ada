#include "pipeline/lowering/strict_check.h"

#include <algorithm>
#include <map>
#include <set>
#include <string_view>

#include "base/json_pointer.h"
#include "pipeline/generate/regex_sample.h"
#include "pipeline/generate/schema_ref.h"
#include "pipeline/lowering/measure.h"

namespace structure::pipeline {
namespace {

const std::set<std::string_view> kTypeNames = {"string", "number", "integer", "boolean",
                                               "object", "array",  "null"};

// True when a type keyword admits integers and null at most.
bool OnlyIntegers(const Json* t) {
  if (!t) return false;
  if (t->is_string()) return t->as_string() == "integer";
  if (!t->is_array()) return false;
  bool integer = false;
  for (const Json& x : t->as_array()) {
    if (!x.is_string() || (x.as_string() != "integer" && x.as_string() != "null")) return false;
    integer = integer || x.as_string() == "integer";
  }
  return integer;
}

class Checker {
 public:
  Checker(const Json& root, const Profile& p) : root_(root), p_(p) {}

  std::vector<std::string> Run() {
    if (!root_.is_object()) {
      Add("", "the schema must be a JSON object");
      return reasons_;
    }
    if (p_.root_must_be_object) {
      const Json* t = root_.find("type");
      if (!t || !t->is_string() || t->as_string() != "object")
        Add("", "the root must be a schema of type \"object\"");
      if (root_.contains("anyOf")) Add("", "the root must not be an anyOf union");
    }
    Walk(root_, "", 0);
    if (!p_.recursion && p_.refs) CheckCycles();
    Limits();
    return reasons_;
  }

 private:
  void Add(const std::string& path, const std::string& why) {
    reasons_.push_back((path.empty() ? "(root)" : path) + ": " + why);
  }

  // What a schema object's keywords said about it, gathered while Walk reads them.
  struct Seen {
    bool has_type = false;
    bool is_object = false;
    bool has_anyof = false;
    bool has_props = false;
  };

  void Walk(const Json& s, const std::string& path, size_t depth) {
    if (s.is_bool()) {
      Add(path, "boolean schemas are not accepted");
      return;
    }
    if (!s.is_object()) {
      Add(path, "a schema must be an object");
      return;
    }
    if (++nodes_ > 200000) return;
    Seen seen;
    for (const auto& [k, v] : s.as_object()) {
      if (!p_.keywords.count(k)) {
        Add(path, "keyword '" + k + "' is not supported");
        continue;
      }
      if (!WalkSubschemas(k, v, path, depth, seen)) CheckKeyword(s, k, v, path, seen);
    }
    if (p_.require_type && !seen.has_type && !seen.has_anyof)
      Add(path, "the schema must name a type");
    if (seen.has_props && seen.has_anyof && !p_.properties_with_anyof)
      Add(path, "properties and anyOf in the same schema are not supported");
    if (p_.pattern_excludes_length && (s.contains("pattern") || s.contains("format")) &&
        (s.contains("minLength") || s.contains("maxLength")))
      Add(path, "pattern or format together with minLength/maxLength loses the length bound");
    if (seen.is_object || seen.has_props) CheckObject(s, path);
    if (seen.is_object || seen.has_props || s.contains("items") || s.contains("prefixItems"))
      max_depth_ = std::max(max_depth_, depth + 1);
  }

  // The keywords that hold subschemas: each is checked and walked. False for any other keyword.
  bool WalkSubschemas(const std::string& k, const Json& v, const std::string& path, size_t depth,
                      Seen& seen) {
    if (k == "anyOf") {
      seen.has_anyof = true;
      ++unions_;
      if (!v.is_array() || v.size() == 0) {
        Add(path, "anyOf must be a non-empty array");
        return true;
      }
      for (size_t i = 0; i < v.size(); ++i)
        Walk(v.as_array()[i], path + "/anyOf/" + std::to_string(i), depth);
    } else if (k == "properties") {
      seen.has_props = true;
      if (!v.is_object()) {
        Add(path, "properties must be an object");
        return true;
      }
      for (const auto& [name, sub] : v.as_object()) {
        ++properties_;
        budget_ += name.size();
        Walk(sub, path + "/properties/" + EscapePointerToken(name), depth + 1);
      }
    } else if (k == "items") {
      if (v.is_array()) {
        Add(path, "items must be a schema");
        return true;
      }
      Walk(v, path + "/items", depth + 1);
    } else if (k == "prefixItems") {
      if (!v.is_array()) {
        Add(path, "prefixItems must be an array");
        return true;
      }
      for (size_t i = 0; i < v.size(); ++i)
        Walk(v.as_array()[i], path + "/prefixItems/" + std::to_string(i), depth + 1);
    } else if (k == "additionalProperties") {
      if (v.is_bool()) {
        if (v.as_bool() && p_.closed_objects) Add(path, "additionalProperties must be false");
      } else if (!p_.additional_properties_schema) {
        Add(path, "additionalProperties must be false");
      } else {
        Walk(v, path + "/additionalProperties", depth + 1);
      }
    } else if (k == "$defs") {
      if (!v.is_object() || !path.empty()) {
        Add(path, "$defs must be an object at the root");
        return true;
      }
      for (const auto& [name, sub] : v.as_object()) {
        budget_ += name.size();
        Walk(sub, "/$defs/" + EscapePointerToken(name), 0);
      }
    } else {
      return false;
    }
    return true;
  }

  // A keyword without subschemas, checked against the profile.
  void CheckKeyword(const Json& s, const std::string& k, const Json& v, const std::string& path,
                    Seen& seen) {
    if (k == "type") {
      seen.has_type = true;
      CheckType(v, path, seen);
    } else if (k == "$ref") {
      seen.has_type = true;
      if (!v.is_string() || !ResolveLocalRef(root_, v.as_string()))
        Add(path, "$ref must point inside the schema");
      else if (!p_.refs)
        Add(path, "$ref is not supported");
    } else if (k == "enum") {
      CheckEnum(v, path);
      seen.has_type = true;
    } else if (k == "const") {
      if (v.is_object() || v.is_array()) Add(path, "const must be a primitive");
      if (v.is_string()) budget_ += v.as_string().size();
      seen.has_type = true;
    } else if (k == "format") {
      if (!v.is_string() || !p_.formats.count(v.as_string()))
        Add(path, "format '" + (v.is_string() ? v.as_string() : ToJson(v)) + "' is not supported");
    } else if (k == "pattern") {
      CheckPattern(v, path);
    } else if (k == "required") {
      if (!v.is_array()) Add(path, "required must be an array");
    } else if (k == "minItems") {
      if (p_.max_min_items && (!v.is_number() || v.as_double() > p_.max_min_items))
        Add(path, "minItems above " + std::to_string(p_.max_min_items) + " is not supported");
    } else if (k == "minimum" || k == "maximum" || k == "exclusiveMinimum" ||
               k == "exclusiveMaximum") {
      if (!v.is_number()) Add(path, k + " must be a number");
      if (p_.numeric_bounds_integer_only && !OnlyIntegers(s.find("type")))
        Add(path, k + " is only enforced on integers");
    } else if (k == "nullable") {
      if (!v.is_bool()) Add(path, "nullable must be a boolean");
    }
  }

  void CheckType(const Json& v, const std::string& path, Seen& seen) {
    if (v.is_array()) {
      if (!p_.type_arrays) Add(path, "type arrays are not supported");
      bool has_null = false;
      for (const Json& t : v.as_array()) {
        if (!t.is_string() || !kTypeNames.count(t.as_string())) Add(path, "unknown type name");
        if (t.is_string() && t.as_string() == "object") seen.is_object = true;
        if (t.is_string() && t.as_string() == "null") has_null = true;
      }
      if (v.size() > 1 || has_null) ++unions_;
    } else if (v.is_string() && kTypeNames.count(v.as_string())) {
      seen.is_object = seen.is_object || v.as_string() == "object";
      if (v.as_string() == "null" && !p_.type_arrays) Add(path, "type null is not supported");
    } else {
      Add(path, "type must name a JSON type");
    }
  }

  void CheckObject(const Json& s, const std::string& path) {
    const Json* ap = s.find("additionalProperties");
    if (p_.closed_objects && !(ap && ap->is_bool() && !ap->as_bool()))
      Add(path, "objects must set additionalProperties to false");
    const Json* props = s.find("properties");
    std::set<std::string> req;
    if (const Json* r = s.find("required"); r && r->is_array())
      for (const Json& x : r->as_array())
        if (x.is_string()) req.insert(x.as_string());
    if (props && props->is_object())
      for (const auto& [name, sub] : props->as_object()) {
        if (req.count(name)) continue;
        if (p_.all_required) Add(path, "property '" + name + "' must be listed in required");
        ++optional_;
      }
  }

  void CheckEnum(const Json& v, const std::string& path) {
    if (!v.is_array() || v.size() == 0) {
      Add(path, "enum must be a non-empty array");
      return;
    }
    size_t chars = 0;
    for (const Json& x : v.as_array()) {
      if (x.is_object() || x.is_array()) Add(path, "enum values must be primitives");
      if (p_.enum_strings_only && !x.is_string()) Add(path, "enum values must be strings");
      if (!p_.enum_booleans && x.is_bool()) Add(path, "enum values must not be booleans");
      if (x.is_string()) chars += x.as_string().size();
    }
    budget_ += chars;
    enum_values_ += v.size();
    if (p_.max_enum_values_single && v.size() > p_.max_enum_values_single)
      Add(path, "enum has " + std::to_string(v.size()) + " values (limit " +
                    std::to_string(p_.max_enum_values_single) + ")");
    if (p_.large_enum_threshold && v.size() > p_.large_enum_threshold &&
        chars > p_.large_enum_max_chars)
      Add(path, "enum with more than " + std::to_string(p_.large_enum_threshold) +
                    " values exceeds " + std::to_string(p_.large_enum_max_chars) + " characters");
  }

  void CheckPattern(const Json& v, const std::string& path) {
    if (!v.is_string()) {
      Add(path, "pattern must be a string");
      return;
    }
    const std::string& p = v.as_string();
    if (p_.pattern_simple_only && !IsSimpleRegex(p, p_.pattern_max_count))
      Add(path, "pattern uses regex features the provider does not accept");
    if (p_.pattern_anchored && (p.empty() || p.front() != '^' || p.back() != '$'))
      Add(path, "pattern must be anchored as ^...$");
  }

  // A cycle among $defs reached through $ref is recursion.
  void CheckCycles() {
    std::map<std::string, std::set<std::string>> edges;
    const Json* defs = root_.find("$defs");
    auto collect = [&](auto&& self, const Json& s, std::set<std::string>& out) -> void {
      if (s.is_object()) {
        if (const Json* r = s.find("$ref"); r && r->is_string()) out.insert(r->as_string());
        for (const auto& [k, v] : s.as_object())
          if (k != "$defs" && k != "enum" && k != "const") self(self, v, out);
      } else if (s.is_array()) {
        for (const Json& v : s.as_array()) self(self, v, out);
      }
    };
    collect(collect, root_, edges["#"]);
    if (defs && defs->is_object())
      for (const auto& [name, sub] : defs->as_object())
        collect(collect, sub, edges["#/$defs/" + EscapePointerToken(name)]);
    std::map<std::string, int> state;
    bool cycle = false;
    auto dfs = [&](auto&& self, const std::string& n) -> void {
      state[n] = 1;
      for (const std::string& m : edges[n]) {
        if (state[m] == 1) cycle = true;
        if (state[m] == 0) self(self, m);
      }
      state[n] = 2;
    };
    dfs(dfs, "#");
    if (cycle) Add("", "recursive schemas are not supported");
  }

  void Limits() {
    auto over = [&](size_t value, size_t limit, const std::string& what) {
      if (limit && value > limit)
        Add("",
            what + " " + std::to_string(value) + " exceeds the limit of " + std::to_string(limit));
    };
    over(properties_, p_.max_properties, "property count");
    over(max_depth_, p_.max_depth, "nesting depth");
    over(enum_values_, p_.max_enum_values, "enum value count");
    over(budget_, p_.max_string_budget, "string budget");
    over(optional_, p_.max_optional, "optional property count");
    over(unions_, p_.max_unions, "union count");
    if (p_.max_grammar_size)
      over(MeasureSchema(root_).grammar, p_.max_grammar_size, "grammar size");
  }

  const Json& root_;
  const Profile& p_;
  std::vector<std::string> reasons_;
  size_t nodes_ = 0, properties_ = 0, max_depth_ = 0, enum_values_ = 0, budget_ = 0, optional_ = 0,
         unions_ = 0;
};

}  // namespace

std::vector<std::string> CheckProviderSchema(const Json& schema, const Profile& profile) {
  if (!profile.enforces) return {};
  return Checker(schema, profile).Run();
}

}  // namespace structure::pipeline
