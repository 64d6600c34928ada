#include "sim/corrupt.h"

#include <functional>
#include <vector>

namespace structure::sim {
namespace {

struct Candidate {
  std::string what;
  std::function<void()> apply;
  // A weak break may be no violation of the schema the client holds: an extra property where the
  // provider form closed an object the client left open, a format the client does not assert.
  bool weak = false;
};

// The need branch or property of the forms clients send ({"_need": ...}).
bool IsNeedObject(const Json& s) {
  const Json* props = s.find("properties");
  return props && props->is_object() && props->find("_need");
}

bool IsNullSchema(const Json& s) {
  const Json* t = s.find("type");
  return t && t->is_string() && t->as_string() == "null";
}

// Whether the schema admits null: removing such a required property breaks only the provider
// form (an optional property made required and nullable), not the client's schema.
bool AdmitsNull(const Json& s) {
  if (const Json* t = s.find("type"); t && t->is_array()) {
    for (const Json& x : t->as_array()) {
      if (x.is_string() && x.as_string() == "null") return true;
    }
  }
  if (const Json* n = s.find("nullable"); n && n->is_bool() && n->as_bool()) return true;
  for (const char* key : {"anyOf", "oneOf"}) {
    if (const Json* u = s.find(key); u && u->is_array()) {
      for (const Json& b : u->as_array()) {
        if (b.is_object() && IsNullSchema(b)) return true;
      }
    }
  }
  return false;
}

bool TypeFits(const Json& s, const Json& v) {
  const Json* t = s.find("type");
  if (!t || !t->is_string()) return true;
  const std::string& type = t->as_string();
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_bool();
  if (type == "integer") return v.is_int();
  if (type == "number") return v.is_number();
  return v.is_null();
}

// The first non-null type a schema names ("type": "string" or ["string", "null"]), or "".
std::string MainType(const Json& s) {
  const Json* t = s.find("type");
  if (t && t->is_string()) return t->as_string();
  if (t && t->is_array()) {
    for (const Json& x : t->as_array()) {
      if (x.is_string() && x.as_string() != "null") return x.as_string();
    }
  }
  return "";
}

class Corrupter {
 public:
  explicit Corrupter(const Json& root) : root_(root) {}

  void Walk(const Json& schema_in, Json& value, const std::string& path, int depth) {
    if (depth > 32 || !schema_in.is_object()) return;
    const Json& schema = Deref(schema_in);
    if (!schema.is_object()) return;
    // A union: break the branch the value is an instance of, never the need branch.
    for (const char* key : {"anyOf", "oneOf"}) {
      const Json* u = schema.find(key);
      if (!u || !u->is_array()) continue;
      for (const Json& b_in : u->as_array()) {
        const Json& b = Deref(b_in);
        if (!b.is_object() || IsNeedObject(b) || (IsNullSchema(b) && !value.is_null())) continue;
        if (TypeFits(b, value)) return Walk(b, value, path, depth + 1);
      }
    }
    // The envelope around the answer ({"result": ..., "_need": ...}) is the client's form, not
    // its schema: only what it carries is broken.
    bool envelope = IsNeedObject(schema);
    if (!envelope) Offer(schema, value, path);
    if (value.is_object()) {
      const Json* props = schema.find("properties");
      if (props && props->is_object()) {
        for (auto& [name, child] : value.as_object()) {
          if (envelope && name == "_need") continue;
          if (const Json* ps = props->find(name)) Walk(*ps, child, path + "/" + name, depth + 1);
        }
      }
    } else if (value.is_array() && value.size() > 0) {
      const Json* items = schema.find("items");
      if (items && items->is_object()) Walk(*items, value.as_array()[0], path + "/0", depth + 1);
    }
  }

  std::vector<Candidate>& candidates() { return candidates_; }

 private:
  const Json& Deref(const Json& schema) {
    const Json* ref = schema.find("$ref");
    if (!ref || !ref->is_string()) return schema;
    const std::string& r = ref->as_string();
    if (r == "#") return root_;
    for (std::string prefix : {"#/$defs/", "#/definitions/"}) {
      if (r.rfind(prefix, 0) != 0) continue;
      const Json* defs = root_.find(prefix.substr(2, prefix.size() - 3));
      if (const Json* t = defs ? defs->find(r.substr(prefix.size())) : nullptr) return *t;
    }
    return schema;
  }

  void Add(std::string what, std::function<void()> apply) {
    candidates_.push_back({std::move(what), std::move(apply), false});
  }
  void AddWeak(std::string what, std::function<void()> apply) {
    candidates_.push_back({std::move(what), std::move(apply), true});
  }

  void Offer(const Json& s, Json& v, const std::string& path) {
    std::string at = path.empty() ? "/" : path;
    Json* target = &v;
    if (const Json* e = s.find("enum"); e && e->is_array()) {
      Add(at + ": value not in enum", [target] { *target = Json("not-an-allowed-value"); });
    }
    if (const Json* c = s.find("const")) {
      Add(at + ": value differs from const", [target, c] {
        *target = c->is_string() ? Json(c->as_string() + "-changed") : Json("changed");
      });
    }
    if (v.is_number()) {
      bool integer = v.is_int();
      if (const Json* m = s.find("maximum"); m && m->is_number()) {
        Add(at + ": exceeds maximum", [target, m, integer] {
          *target =
              integer ? Json(static_cast<int64_t>(m->as_double()) + 1) : Json(m->as_double() + 1);
        });
      }
      if (const Json* m = s.find("minimum"); m && m->is_number()) {
        Add(at + ": below minimum", [target, m, integer] {
          *target =
              integer ? Json(static_cast<int64_t>(m->as_double()) - 1) : Json(m->as_double() - 1);
        });
      }
      if (const Json* m = s.find("exclusiveMaximum"); m && m->is_number()) {
        Add(at + ": not below exclusiveMaximum", [target, m] { *target = *m; });
      }
      if (const Json* m = s.find("exclusiveMinimum"); m && m->is_number()) {
        Add(at + ": not above exclusiveMinimum", [target, m] { *target = *m; });
      }
    }
    if (v.is_string()) {
      if (const Json* m = s.find("maxLength"); m && m->is_integral()) {
        Add(at + ": longer than maxLength", [target, m] {
          *target = Json(std::string(static_cast<size_t>(m->as_int()) + 1, 'x'));
        });
      }
      if (const Json* m = s.find("minLength"); m && m->is_integral() && m->as_int() > 0) {
        Add(at + ": shorter than minLength", [target] { *target = Json(""); });
      }
      if (s.find("pattern")) {
        Add(at + ": does not match pattern", [target] { *target = Json("?? invalid ??"); });
      } else if (s.find("format")) {
        AddWeak(at + ": does not match format", [target] { *target = Json("?? invalid ??"); });
      }
    }
    if (v.is_array()) {
      if (const Json* m = s.find("maxItems"); m && m->is_integral() && v.size() > 0) {
        Add(at + ": more items than maxItems", [target, m] {
          Json first = target->as_array()[0];
          while (static_cast<int64_t>(target->size()) <= m->as_int()) target->push_back(first);
        });
      }
      if (const Json* m = s.find("minItems"); m && m->is_integral() && m->as_int() > 0) {
        Add(at + ": fewer items than minItems", [target] { *target = Json::MakeArray(); });
      }
    }
    if (v.is_object()) {
      const Json* props = s.find("properties");
      if (const Json* req = s.find("required"); req && req->is_array()) {
        for (const auto& r : req->as_array()) {
          if (!r.is_string() || !v.find(r.as_string())) continue;
          std::string name = r.as_string();
          const Json* ps = props && props->is_object() ? props->find(name) : nullptr;
          if (ps && ps->is_object() && AdmitsNull(Deref(*ps))) continue;
          Add(at + ": required property '" + name + "' missing",
              [target, name] { target->erase(name); });
        }
      }
      if (const Json* ap = s.find("additionalProperties"); ap && ap->is_bool() && !ap->as_bool()) {
        AddWeak(at + ": unexpected additional property",
                [target] { target->set("unexpected_field", Json("surprise")); });
      }
    }
    if (std::string type = MainType(s); !type.empty() && !path.empty()) {
      Add(at + ": wrong type (expected " + type + ")", [target, type] {
        if (type == "string")
          *target = Json(int64_t{12345});
        else if (type == "boolean")
          *target = Json("yes");
        else if (type == "null")
          *target = Json("null");
        else if (type == "array")
          *target = Json("[]");
        else if (type == "object")
          *target = Json("{}");
        else
          *target = Json("forty-two");
      });
    }
  }

  const Json& root_;
  std::vector<Candidate> candidates_;
};

}  // namespace

std::string Corrupt(const Json& schema, Json& instance, Rng& rng) {
  Corrupter c(schema);
  c.Walk(schema, instance, "", 0);
  std::vector<Candidate*> strong;
  std::vector<Candidate*> weak;
  for (Candidate& cand : c.candidates()) (cand.weak ? weak : strong).push_back(&cand);
  std::vector<Candidate*>& pool = strong.empty() ? weak : strong;
  if (pool.empty()) return "";
  // Candidates hold pointers into instance; apply exactly one, before anything else moves.
  Candidate& pick = *pool[rng.Below(pool.size())];
  pick.apply();
  return pick.what;
}

}  // namespace structure::sim
