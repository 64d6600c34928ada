// A built-in subset of the providers' documented schema rejections, for builds without the
// lowering library's strict checker.
#include <set>

#include "sim/schema_check.h"

namespace structure::sim {
namespace {

class Checker {
 public:
  explicit Checker(std::string_view profile) : profile_(profile) {}

  void Walk(const Json& s, const std::string& context, int depth, bool root) {
    if (!s.is_object() || depth > 64) return;
    std::string ctx = "In context=(" + context + "), ";
    if (profile_ == "openai-strict")
      OpenAi(s, ctx, root);
    else if (profile_ == "anthropic-strict")
      Anthropic(s, ctx);
    else if (profile_ == "gemini-legacy")
      GeminiLegacy(s, context);
    for (const char* key : {"properties", "$defs", "definitions"}) {
      const Json* m = s.find(key);
      if (!m || !m->is_object()) continue;
      for (const auto& [name, sub] : m->as_object()) {
        Walk(sub, context + (context.empty() ? "" : ", ") + "'" + key + "', '" + name + "'",
             depth + 1, false);
      }
    }
    for (const char* key : {"anyOf", "oneOf", "allOf", "prefixItems"}) {
      const Json* a = s.find(key);
      if (!a || !a->is_array()) continue;
      for (size_t i = 0; i < a->size(); ++i) {
        Walk(a->as_array()[i],
             context + (context.empty() ? "" : ", ") + "'" + key + "', '" + std::to_string(i) + "'",
             depth + 1, false);
      }
    }
    for (const char* key : {"items", "additionalProperties"}) {
      const Json* sub = s.find(key);
      if (sub && sub->is_object())
        Walk(*sub, context + (context.empty() ? "" : ", ") + "'" + key + "'", depth + 1, false);
    }
  }

  std::vector<std::string> issues;

 private:
  bool IsObject(const Json& s) {
    const Json* t = s.find("type");
    if (t && t->is_string()) return t->as_string() == "object";
    if (t && t->is_array()) {
      for (const auto& x : t->as_array()) {
        if (x.is_string() && x.as_string() == "object") return true;
      }
    }
    return s.find("properties") != nullptr;
  }

  void OpenAi(const Json& s, const std::string& ctx, bool root) {
    if (root) {
      if (s.find("anyOf")) issues.push_back(ctx + "root schema must not be 'anyOf'.");
      const Json* t = s.find("type");
      if (!t || !t->is_string() || t->as_string() != "object") {
        issues.push_back(ctx + "schema must be a JSON Schema of 'type: \"object\"', got 'type: \"" +
                         (t && t->is_string() ? t->as_string() : std::string("None")) + "\"'.");
      }
    }
    for (const char* k : {"allOf", "not", "if", "then", "else", "dependentRequired",
                          "dependentSchemas", "oneOf", "patternProperties"}) {
      if (s.find(k)) issues.push_back(ctx + "'" + k + "' is not permitted.");
    }
    if (!IsObject(s)) return;
    const Json* ap = s.find("additionalProperties");
    if (!ap || !ap->is_bool() || ap->as_bool()) {
      issues.push_back(ctx + "'additionalProperties' is required to be supplied and to be false.");
    }
    const Json* props = s.find("properties");
    if (!props || !props->is_object()) return;
    std::set<std::string> required;
    if (const Json* r = s.find("required"); r && r->is_array()) {
      for (const auto& x : r->as_array()) {
        if (x.is_string()) required.insert(x.as_string());
      }
    }
    for (const auto& [name, sub] : props->as_object()) {
      if (!required.count(name)) {
        issues.push_back(ctx +
                         "'required' is required to be supplied and to be an array "
                         "including every key in properties. Missing '" +
                         name + "'.");
        break;
      }
    }
  }

  void Anthropic(const Json& s, const std::string& ctx) {
    for (const char* k :
         {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}) {
      if (s.find(k))
        issues.push_back(ctx + "For 'number' type, property '" + k + "' is not supported");
    }
    for (const char* k : {"minLength", "maxLength"}) {
      if (s.find(k))
        issues.push_back(ctx + "For 'string' type, property '" + k + "' is not supported");
    }
    if (const Json* m = s.find("minItems"); m && m->is_integral() && m->as_int() > 1) {
      issues.push_back(ctx +
                       "For 'array' type, 'minItems' values other than 0 or 1 are not supported");
    }
    if (s.find("maxItems"))
      issues.push_back(ctx + "For 'array' type, property 'maxItems' is not supported");
    if (const Json* r = s.find("$ref"); r && r->is_string() && r->as_string() == "#") {
      issues.push_back(ctx + "Recursive schemas are not supported");
    }
    if (IsObject(s)) {
      const Json* ap = s.find("additionalProperties");
      if (!ap || !ap->is_bool() || ap->as_bool()) {
        issues.push_back(
            ctx + "For 'object' type, 'additionalProperties' must be explicitly set to false");
      }
    }
  }

  void GeminiLegacy(const Json& s, const std::string& context) {
    static const std::set<std::string> kKnown = {
        "type",      "format",    "title",      "description", "nullable",      "enum",
        "maxItems",  "minItems",  "properties", "required",    "minProperties", "maxProperties",
        "minLength", "maxLength", "pattern",    "example",     "anyOf",         "propertyOrdering",
        "default",   "items",     "minimum",    "maximum"};
    for (const auto& [key, value] : s.as_object()) {
      if (!kKnown.count(key)) {
        issues.push_back("Unknown name \"" + key + "\" at 'generation_config.response_schema" +
                         (context.empty() ? "" : "(" + context + ")") + "': Cannot find field.");
      }
    }
    if (const Json* t = s.find("type"); t && t->is_array()) {
      issues.push_back("Proto field is not repeating, cannot start list (type).");
    }
  }

  std::string_view profile_;
};

}  // namespace

std::vector<std::string> BasicSchemaIssues(const Json& schema, std::string_view profile) {
  Checker c(profile);
  if (!schema.is_object()) {
    if (profile == "openai-strict" || profile == "anthropic-strict" || profile == "gemini-legacy") {
      return {"schema must be a JSON object"};
    }
    return {};
  }
  c.Walk(schema, "", 0, true);
  return c.issues;
}

}  // namespace structure::sim
