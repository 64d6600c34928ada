#include "sim/need_forms.h"

#include "pipeline/generate/generate.h"

namespace structure::sim {
namespace {

const Json* Deref(const Json& root, const Json& schema) {
  const Json* ref = schema.find("$ref");
  if (!ref || !ref->is_string()) return &schema;
  const std::string& r = ref->as_string();
  if (r == "#") return &root;
  for (const char* prefix : {"#/$defs/", "#/definitions/"}) {
    std::string p = prefix;
    if (r.rfind(p, 0) != 0) continue;
    const Json* defs = root.find(p.substr(2, p.size() - 3));
    const Json* target = defs ? defs->find(r.substr(p.size())) : nullptr;
    if (target) return target;
  }
  return &schema;
}

bool HasNeedProperty(const Json& schema) {
  const Json* props = schema.find("properties");
  return props && props->find(kNeedKey) != nullptr;
}

// Index of the anyOf/oneOf branch that is the need form, or -1.
int NeedBranch(const Json& root, const Json& schema, const char** key) {
  for (const char* k : {"anyOf", "oneOf"}) {
    const Json* u = schema.find(k);
    if (!u || !u->is_array()) continue;
    for (size_t i = 0; i < u->size(); ++i) {
      if (HasNeedProperty(*Deref(root, u->as_array()[i]))) {
        *key = k;
        return static_cast<int>(i);
      }
    }
  }
  return -1;
}

bool IsNullSchema(const Json& s) {
  const Json* t = s.find("type");
  return t && t->is_string() && t->as_string() == "null";
}

// True when the schema admits null; *stripped becomes the schema without the null option.
bool Nullable(const Json& s, Json* stripped) {
  *stripped = s;
  if (const Json* t = s.find("type"); t && t->is_array()) {
    Json types = Json::MakeArray();
    bool had = false;
    for (const auto& x : t->as_array()) {
      if (x.is_string() && x.as_string() == "null")
        had = true;
      else
        types.push_back(x);
    }
    if (!had) return false;
    stripped->set("type", types.size() == 1 ? types.as_array()[0] : types);
    return true;
  }
  if (const Json* n = s.find("nullable"); n && n->is_bool() && n->as_bool()) {
    stripped->erase("nullable");
    return true;
  }
  for (const char* k : {"anyOf", "oneOf"}) {
    const Json* u = s.find(k);
    if (!u || !u->is_array()) continue;
    Json rest = Json::MakeArray();
    bool had = false;
    for (const auto& b : u->as_array()) {
      if (IsNullSchema(b))
        had = true;
      else
        rest.push_back(b);
    }
    if (!had) continue;
    stripped->set(k, rest);
    return true;
  }
  return false;
}

Json NullSchema() {
  Json s = Json::MakeObject();
  s.set("type", "null");
  return s;
}

Json ConstSchema(const std::string& message) {
  Json s = Json::MakeObject();
  s.set("const", message);
  return s;
}

// Rewrites an envelope object's properties: the need property becomes `need_schema`, the others
// lose (for an answer) or take (for a need) their null option.
Json RewriteEnvelope(const Json& object_schema, const Json& need_schema, bool need) {
  Json out = object_schema;
  Json* props = out.find("properties");
  for (auto& [name, prop] : props->as_object()) {
    if (name == kNeedKey) {
      prop = need_schema;
      continue;
    }
    Json stripped;
    if (Nullable(prop, &stripped)) prop = need ? NullSchema() : stripped;
  }
  if (need) {
    // A need answer carries _need even when the envelope leaves it optional.
    Json required = out.find("required") ? *out.find("required") : Json::MakeArray();
    bool listed = false;
    if (required.is_array()) {
      for (const auto& r : required.as_array())
        listed = listed || (r.is_string() && r.as_string() == kNeedKey);
    }
    if (!listed && required.is_array()) required.push_back(kNeedKey);
    out.set("required", std::move(required));
  }
  return out;
}

Result<Json> Generate(const Json& schema, uint64_t seed) {
  pipeline::GenerateOptions options;
  return pipeline::GenerateInstance(schema, seed, options);
}

}  // namespace

Result<Json> GenerateAnswer(const Json& schema, uint64_t seed) {
  if (!schema.is_object()) return Generate(schema, seed);
  const char* key = nullptr;
  int branch = NeedBranch(schema, schema, &key);
  if (branch >= 0) {
    Json copy = schema;
    Json::Array& u = copy.find(key)->as_array();
    if (u.size() > 1) u.erase(u.begin() + branch);
    return Generate(copy, seed);
  }
  if (HasNeedProperty(schema)) return Generate(RewriteEnvelope(schema, NullSchema(), false), seed);
  return Generate(schema, seed);
}

Json GenerateNeed(const Json& schema, const std::string& message, uint64_t seed) {
  Json plain = Json::MakeObject();
  plain.set(kNeedKey, message);
  if (!schema.is_object()) return plain;
  const char* key = nullptr;
  int branch = NeedBranch(schema, schema, &key);
  Json candidate;
  if (branch >= 0) {
    const Json& b = *Deref(schema, schema.find(key)->as_array()[branch]);
    Json copy = schema;
    Json only = Json::MakeArray();
    only.push_back(RewriteEnvelope(b, ConstSchema(message), true));
    copy.set(key, std::move(only));
    candidate = copy;
  } else if (HasNeedProperty(schema)) {
    candidate = RewriteEnvelope(schema, ConstSchema(message), true);
  } else {
    return plain;
  }
  auto generated = Generate(candidate, seed);
  if (!generated.ok() || !generated->is_object()) return plain;
  return *generated;
}

}  // namespace structure::sim
