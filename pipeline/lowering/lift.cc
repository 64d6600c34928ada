#include "pipeline/lowering/lift.h"

#include <set>

#include "base/json_pointer.h"
#include "pipeline/generate/json_type.h"
#include "pipeline/generate/schema_ref.h"

namespace structure::pipeline {
namespace {

constexpr int kMaxDepth = 2000;

bool Conforms(const Json& v, const Json& s, const Json* defs, int depth) {
  if (!s.is_object() || depth > 64) return true;
  if (const Json* r = s.find("$ref"); r && r->is_string()) {
    const std::string& ref = r->as_string();
    if (defs && ref.rfind("#/$defs/", 0) == 0) {
      const Json* target = ResolvePointer(*defs, ref.substr(7));
      return !target || Conforms(v, *target, defs, depth + 1);
    }
    return true;
  }
  if (v.is_null()) {
    if (const Json* n = s.find("nullable"); n && n->is_bool() && n->as_bool()) return true;
  }
  if (const Json* t = s.find("type")) {
    bool ok = false;
    if (t->is_string()) ok = HasSchemaType(v, t->as_string());
    if (t->is_array())
      for (const Json& x : t->as_array())
        ok = ok || (x.is_string() && HasSchemaType(v, x.as_string()));
    if (!ok) return false;
  }
  if (const Json* e = s.find("enum"); e && e->is_array()) {
    bool found = false;
    for (const Json& x : e->as_array()) found = found || x == v;
    if (!found) return false;
  }
  if (const Json* c = s.find("const"); c && !(*c == v)) return false;
  if (const Json* any = s.find("anyOf"); any && any->is_array()) {
    bool ok = false;
    for (const Json& b : any->as_array()) ok = ok || Conforms(v, b, defs, depth + 1);
    if (!ok) return false;
  }
  if (v.is_object()) {
    const Json* props = s.find("properties");
    if (const Json* req = s.find("required"); req && req->is_array())
      for (const Json& k : req->as_array())
        if (k.is_string() && !v.contains(k.as_string())) return false;
    const Json* ap = s.find("additionalProperties");
    for (const auto& [k, x] : v.as_object()) {
      const Json* sub = props ? props->find(k) : nullptr;
      if (sub) {
        if (!Conforms(x, *sub, defs, depth + 1)) return false;
      } else if (ap && ap->is_bool() && !ap->as_bool()) {
        return false;
      } else if (ap && ap->is_object() && !Conforms(x, *ap, defs, depth + 1)) {
        return false;
      }
    }
  }
  if (v.is_array()) {
    const Json* items = s.find("items");
    const Json* prefix = s.find("prefixItems");
    for (size_t i = 0; i < v.size(); ++i) {
      const Json* sub =
          prefix && prefix->is_array() && i < prefix->size() ? &prefix->as_array()[i] : items;
      if (sub && !Conforms(v.as_array()[i], *sub, defs, depth + 1)) return false;
    }
  }
  return true;
}

std::string Child(const std::string& path, const std::string& token) {
  return path + "/" + EscapePointerToken(token);
}

class Walker {
 public:
  explicit Walker(const LiftPlan& plan) : plan_(plan), nodes_(*plan.nodes) {}

  Result<Json> LiftAt(const Json& v, int idx, const std::string& path, int depth) {
    if (idx < 0 || v.is_null()) return v;
    if (depth > kMaxDepth)
      return Status(Code::kSchemaViolation, Where(path) + ": nested too deeply");
    const LiftNode& n = nodes_[idx];
    switch (n.kind) {
      case LiftNode::Kind::kIdentity:
        return v;
      case LiftNode::Kind::kObject: {
        if (!v.is_object()) return v;
        Json out = Json::MakeObject();
        for (const auto& [k, x] : v.as_object()) {
          const LiftNode::Property* prop = Find(n, k);
          if (prop && prop->null_is_absent && x.is_null()) continue;
          Result<Json> y = LiftAt(x, prop ? prop->plan : n.extra, Child(path, k), depth + 1);
          if (!y.ok()) return y;
          out.set(k, std::move(*y));
        }
        return out;
      }
      case LiftNode::Kind::kMap: {
        if (!v.is_array()) return v;
        Json out = Json::MakeObject();
        for (size_t i = 0; i < v.size(); ++i) {
          const Json& e = v.as_array()[i];
          const Json* key = e.is_object() ? e.find("key") : nullptr;
          const Json* value = e.is_object() ? e.find("value") : nullptr;
          // Messages name the user's pointer (the map and its key), not the list sent for it.
          if (!key || !key->is_string() || !value)
            return Status(Code::kSchemaViolation, Where(path) + ": entry " + std::to_string(i) +
                                                      " has no \"key\" string and \"value\"");
          if (out.contains(key->as_string()))
            return Status(Code::kSchemaViolation,
                          Child(path, key->as_string()) + ": the key appears more than once");
          Result<Json> y = LiftAt(*value, n.extra, Child(path, key->as_string()), depth + 1);
          if (!y.ok()) return y;
          out.set(key->as_string(), std::move(*y));
        }
        return out;
      }
      case LiftNode::Kind::kArray: {
        if (!v.is_array()) return v;
        Json out = Json::MakeArray();
        for (size_t i = 0; i < v.size(); ++i) {
          int p = i < n.prefix.size() ? n.prefix[i] : n.items;
          Result<Json> y = LiftAt(v.as_array()[i], p, path + "/" + std::to_string(i), depth + 1);
          if (!y.ok()) return y;
          out.push_back(std::move(*y));
        }
        return out;
      }
      case LiftNode::Kind::kAnyOf:
        for (const auto& [schema, p] : n.branches)
          if (ConformsToShape(v, schema, plan_.defs.get())) return LiftAt(v, p, path, depth + 1);
        return v;
      case LiftNode::Kind::kJsonString: {
        if (!v.is_string()) return v;
        Result<Json> parsed = ParseJson(v.as_string(), {.max_depth = 256, .source = "value"});
        if (!parsed.ok())
          return Status(Code::kSchemaViolation, Where(path) + ": the value is not valid JSON (" +
                                                    parsed.status().message() + ")");
        return *parsed;
      }
    }
    return v;
  }

  Result<Json> EmbedAt(const Json& v, int idx, int depth) {
    if (idx < 0) return v;
    if (depth > kMaxDepth) return InvalidArgument("instance nested too deeply");
    const LiftNode& n = nodes_[idx];
    if (n.kind == LiftNode::Kind::kJsonString) return Json(ToJson(v));
    switch (n.kind) {
      case LiftNode::Kind::kObject: {
        if (!v.is_object()) return v;
        Json out = Json::MakeObject();
        std::set<std::string> declared;
        for (const LiftNode::Property& p : n.properties) {
          declared.insert(p.name);
          const Json* x = v.find(p.name);
          if (!x) {
            if (p.null_is_absent) out.set(p.name, Json());
            continue;
          }
          Result<Json> y = EmbedAt(*x, p.plan, depth + 1);
          if (!y.ok()) return y;
          out.set(p.name, std::move(*y));
        }
        for (const auto& [k, x] : v.as_object()) {
          if (declared.count(k)) continue;
          Result<Json> y = EmbedAt(x, n.extra, depth + 1);
          if (!y.ok()) return y;
          out.set(k, std::move(*y));
        }
        return out;
      }
      case LiftNode::Kind::kMap: {
        if (!v.is_object()) return v;
        Json out = Json::MakeArray();
        for (const auto& [k, x] : v.as_object()) {
          Result<Json> y = EmbedAt(x, n.extra, depth + 1);
          if (!y.ok()) return y;
          out.push_back(Json(Json::Object{{"key", Json(k)}, {"value", std::move(*y)}}));
        }
        return out;
      }
      case LiftNode::Kind::kArray: {
        if (!v.is_array()) return v;
        Json out = Json::MakeArray();
        for (size_t i = 0; i < v.size(); ++i) {
          Result<Json> y =
              EmbedAt(v.as_array()[i], i < n.prefix.size() ? n.prefix[i] : n.items, depth + 1);
          if (!y.ok()) return y;
          out.push_back(std::move(*y));
        }
        return out;
      }
      case LiftNode::Kind::kAnyOf:
        for (const auto& [schema, p] : n.branches) {
          Result<Json> y = EmbedAt(v, p, depth + 1);
          if (y.ok() && ConformsToShape(*y, schema, plan_.defs.get())) return y;
        }
        return v;
      default:
        return v;
    }
  }

 private:
  static std::string Where(const std::string& path) { return path.empty() ? "(root)" : path; }
  static const LiftNode::Property* Find(const LiftNode& n, const std::string& k) {
    for (const LiftNode::Property& p : n.properties)
      if (p.name == k) return &p;
    return nullptr;
  }

  const LiftPlan& plan_;
  const std::vector<LiftNode>& nodes_;
};

}  // namespace

bool ConformsToShape(const Json& value, const Json& provider_schema, const Json* defs) {
  return Conforms(value, provider_schema, defs, 0);
}

Result<Json> Lift(const Json& provider_output, const LiftPlan& plan) {
  const Json* v = &provider_output;
  if (!plan.envelope_key.empty()) {
    v = provider_output.is_object() ? provider_output.find(plan.envelope_key) : nullptr;
    if (!v) return Status(Code::kNotFound, "(root): the answer is not in the requested form");
  }
  if (plan.root < 0 || !plan.nodes) return *v;
  return Walker(plan).LiftAt(*v, plan.root, "", 0);
}

Result<Json> Embed(const Json& instance, const LiftPlan& plan) {
  Json v = instance;
  if (plan.root >= 0 && plan.nodes) {
    Result<Json> e = Walker(plan).EmbedAt(instance, plan.root, 0);
    if (!e.ok()) return e;
    v = std::move(*e);
  }
  if (plan.envelope_key.empty()) return v;
  Json out = Json::MakeObject();
  out.set(plan.envelope_key, std::move(v));
  return out;
}

}  // namespace structure::pipeline
