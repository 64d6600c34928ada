#include "registry/schema_compat.h"

#include <cmath>
#include <optional>

#include "base/json_pointer.h"

namespace structure::registry {
namespace {

constexpr int kMaxDepth = 64;

bool IsNumber(const Json* v) { return v != nullptr && v->is_number(); }

// A numeric lower or upper bound from the inclusive and the exclusive keyword, the tighter one.
struct Bound {
  bool set = false;
  double value = 0;
  bool exclusive = false;
  std::string text;  // "minimum 1", "exclusiveMaximum 10"
};

Bound NumericBound(const Json& s, bool lower) {
  Bound b;
  const char* inclusive = lower ? "minimum" : "maximum";
  const char* exclusive = lower ? "exclusiveMinimum" : "exclusiveMaximum";
  for (const char* key : {inclusive, exclusive}) {
    const Json* v = s.find(key);
    if (!IsNumber(v)) continue;  // draft-04's boolean exclusiveMinimum is not judged
    double d = v->as_double();
    bool excl = key == exclusive;
    bool tighter = !b.set || (lower ? d > b.value : d < b.value) || (d == b.value && excl);
    if (tighter) b = Bound{true, d, excl, std::string(key) + " " + ToJson(*v)};
  }
  return b;
}

// The values a schema allows when it lists them (const or enum); nullopt otherwise.
std::optional<std::vector<Json>> Allowed(const Json& s) {
  if (const Json* c = s.find("const")) return std::vector<Json>{*c};
  if (const Json* e = s.find("enum"); e != nullptr && e->is_array()) return e->as_array();
  return std::nullopt;
}

// The type names a schema allows; nullopt for any type.
std::optional<std::vector<std::string>> Types(const Json& s) {
  const Json* t = s.find("type");
  if (t == nullptr) return std::nullopt;
  std::vector<std::string> out;
  if (t->is_string()) out.push_back(t->as_string());
  if (t->is_array()) {
    for (const Json& e : t->as_array()) {
      if (e.is_string()) out.push_back(e.as_string());
    }
  }
  return out;
}

bool Has(const std::vector<std::string>& v, const std::string& s) {
  for (const auto& e : v) {
    if (e == s) return true;
  }
  return false;
}

class Comparer {
 public:
  std::vector<std::string> lines;

  void Node(const Json& before, const Json& after, const std::string& path, int depth) {
    if (depth > kMaxDepth) return;
    if (before.is_bool() && !before.as_bool()) return;  // nothing was accepted before
    if (after.is_bool() && !after.as_bool()) return Add(path, "now rejects every value");
    static const Json kAny = Json::MakeObject();
    const Json& a = before.is_object() ? before : kAny;
    const Json& b = after.is_object() ? after : kAny;
    TypeChange(a, b, path);
    ValueChange(a, b, path);
    BoundChanges(a, b, path);
    ObjectChanges(a, b, path, depth);
    ArrayChanges(a, b, path, depth);
    for (const char* defs : {"$defs", "definitions"}) {
      const Json* da = a.find(defs);
      const Json* db = b.find(defs);
      if (da == nullptr || db == nullptr || !da->is_object() || !db->is_object()) continue;
      for (const auto& [name, schema] : da->as_object()) {
        if (const Json* s = db->find(name)) {
          Node(schema, *s, path + "/" + defs + "/" + EscapePointerToken(name), depth + 1);
        }
      }
    }
  }

 private:
  void Add(const std::string& path, const std::string& what) {
    lines.push_back((path.empty() ? "(root)" : path) + ": " + what);
  }

  void TypeChange(const Json& a, const Json& b, const std::string& path) {
    auto ta = Types(a);
    auto tb = Types(b);
    if (!tb) return;
    bool narrowed = !ta;
    if (ta) {
      for (const std::string& t : *ta) {
        bool kept = Has(*tb, t) || (t == "integer" && Has(*tb, "number"));
        narrowed = narrowed || !kept;
      }
    }
    if (narrowed) {
      Add(path, "type narrowed from " + (ta ? ToJson(*a.find("type")) : std::string("any")) +
                    " to " + ToJson(*b.find("type")));
    }
  }

  void ValueChange(const Json& a, const Json& b, const std::string& path) {
    auto va = Allowed(a);
    auto vb = Allowed(b);
    if (vb && !va) {
      Json list(*vb);
      Add(path, "now allows only " + ToJson(list));
    } else if (va && vb) {
      for (const Json& v : *va) {
        bool kept = false;
        for (const Json& w : *vb) kept = kept || v == w;
        if (!kept) Add(path, "no longer allows " + ToJson(v));
      }
    }
    for (const char* key : {"pattern", "format"}) {
      const Json* pa = a.find(key);
      const Json* pb = b.find(key);
      if (pb == nullptr || !pb->is_string()) continue;
      if (pa == nullptr) {
        Add(path, std::string(key) + " " + ToJson(*pb) + " added");
      } else if (*pa != *pb) {
        Add(path, std::string(key) + " changed from " + ToJson(*pa) + " to " + ToJson(*pb));
      }
    }
    const Json* ua = a.find("uniqueItems");
    const Json* ub = b.find("uniqueItems");
    bool unique_before = ua != nullptr && ua->is_bool() && ua->as_bool();
    if (ub != nullptr && ub->is_bool() && ub->as_bool() && !unique_before) {
      Add(path, "uniqueItems added");
    }
  }

  void BoundChanges(const Json& a, const Json& b, const std::string& path) {
    for (bool lower : {true, false}) {
      Bound ba = NumericBound(a, lower);
      Bound bb = NumericBound(b, lower);
      if (!bb.set) continue;
      if (!ba.set) {
        Add(path, bb.text + " added");
        continue;
      }
      bool tighter = lower ? bb.value > ba.value : bb.value < ba.value;
      tighter = tighter || (bb.value == ba.value && bb.exclusive && !ba.exclusive);
      if (tighter) {
        Add(path, std::string(lower ? "lower" : "upper") + " bound " +
                      (lower ? "raised" : "lowered") + " from " + ba.text + " to " + bb.text);
      }
    }
    static const std::pair<const char*, bool> kCounts[] = {
        {"minLength", true},   {"maxLength", false},    {"minItems", true},
        {"maxItems", false},   {"minProperties", true}, {"maxProperties", false},
        {"minContains", true}, {"maxContains", false}};
    for (const auto& [key, lower] : kCounts) {
      const Json* va = a.find(key);
      const Json* vb = b.find(key);
      if (!IsNumber(vb)) continue;
      if (!IsNumber(va)) {
        Add(path, std::string(key) + " " + ToJson(*vb) + " added");
      } else if (lower ? vb->as_double() > va->as_double() : vb->as_double() < va->as_double()) {
        Add(path, std::string(key) + (lower ? " raised" : " lowered") + " from " + ToJson(*va) +
                      " to " + ToJson(*vb));
      }
    }
    const Json* ma = a.find("multipleOf");
    const Json* mb = b.find("multipleOf");
    if (IsNumber(mb) && mb->as_double() > 0) {
      if (!IsNumber(ma)) {
        Add(path, "multipleOf " + ToJson(*mb) + " added");
      } else if (std::fmod(ma->as_double(), mb->as_double()) != 0) {
        Add(path, "multipleOf changed from " + ToJson(*ma) + " to " + ToJson(*mb));
      }
    }
  }

  void ObjectChanges(const Json& a, const Json& b, const std::string& path, int depth) {
    std::vector<std::string> required_before;
    if (const Json* r = a.find("required"); r != nullptr && r->is_array()) {
      for (const Json& e : r->as_array()) {
        if (e.is_string()) required_before.push_back(e.as_string());
      }
    }
    if (const Json* r = b.find("required"); r != nullptr && r->is_array()) {
      for (const Json& e : r->as_array()) {
        if (e.is_string() && !Has(required_before, e.as_string())) {
          Add(path, "property " + ToJson(e) + " is now required");
        }
      }
    }
    const Json* pa = a.find("properties");
    const Json* pb = b.find("properties");
    if (pa != nullptr && pa->is_object()) {
      for (const auto& [name, schema] : pa->as_object()) {
        const Json* s = pb != nullptr && pb->is_object() ? pb->find(name) : nullptr;
        if (s == nullptr) {
          Add(path, "property " + ToJson(Json(name)) + " removed");
        } else {
          Node(schema, *s, path + "/properties/" + EscapePointerToken(name), depth + 1);
        }
      }
    }
    const Json* xa = a.find("additionalProperties");
    const Json* xb = b.find("additionalProperties");
    if (xb == nullptr || (xb->is_bool() && xb->as_bool())) return;
    bool closed_before = xa != nullptr && xa->is_bool() && !xa->as_bool();
    if (closed_before) return;
    if (xb->is_bool()) {
      Add(path, "additionalProperties closed: properties not listed are no longer accepted");
    } else {
      Node(xa != nullptr ? *xa : Json(true), *xb, path + "/additionalProperties", depth + 1);
    }
  }

  void ArrayChanges(const Json& a, const Json& b, const std::string& path, int depth) {
    const Json* ia = a.find("items");
    const Json* ib = b.find("items");
    if (ib != nullptr && (ib->is_object() || ib->is_bool())) {
      Node(ia != nullptr && (ia->is_object() || ia->is_bool()) ? *ia : Json(true), *ib,
           path + "/items", depth + 1);
    }
    const Json* qa = a.find("prefixItems");
    const Json* qb = b.find("prefixItems");
    if (qa != nullptr && qb != nullptr && qa->is_array() && qb->is_array()) {
      for (size_t i = 0; i < qa->size() && i < qb->size(); ++i) {
        Node(qa->as_array()[i], qb->as_array()[i], path + "/prefixItems/" + std::to_string(i),
             depth + 1);
      }
    }
  }
};

}  // namespace

std::vector<std::string> BreakingChanges(const Json& before, const Json& after) {
  Comparer c;
  c.Node(before, after, "", 0);
  return c.lines;
}

}  // namespace structure::registry
