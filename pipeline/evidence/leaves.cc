#include "pipeline/evidence/leaves.h"

#include <algorithm>

#include "base/json_pointer.h"
#include "pipeline/evidence/date_match.h"
#include "pipeline/generate/schema_ref.h"

namespace structure::pipeline::evidence {
namespace {

constexpr size_t kMaxSchemasPerValue = 64;
constexpr size_t kMaxDepth = 256;

class Collector {
 public:
  Collector(const Json& root, std::vector<Leaf>& out) : root_(root), out_(out) {}

  void Walk(const Json& v, const std::vector<const Json*>& given, std::string& pointer,
            size_t depth) {
    if (depth > kMaxDepth) return;
    std::vector<const Json*> schemas;
    for (const Json* s : given) Expand(s, schemas, 0);
    if (v.is_object()) {
      for (const auto& [key, child] : v.as_object()) {
        std::vector<const Json*> sub;
        for (const Json* s : schemas) {
          const Json* props = s->find("properties");
          const Json* p = props != nullptr && props->is_object() ? props->find(key) : nullptr;
          if (p == nullptr) p = s->find("additionalProperties");
          if (p != nullptr) sub.push_back(p);
        }
        size_t len = pointer.size();
        pointer += '/';
        pointer += EscapePointerToken(key);
        Walk(child, sub, pointer, depth + 1);
        pointer.resize(len);
      }
      return;
    }
    if (v.is_array()) {
      for (size_t i = 0; i < v.size(); ++i) {
        std::vector<const Json*> sub;
        for (const Json* s : schemas) {
          const Json* prefix = s->find("prefixItems");
          const Json* items = s->find("items");
          if (prefix != nullptr && prefix->is_array() && i < prefix->size()) {
            sub.push_back(&prefix->as_array()[i]);
          } else if (items != nullptr && items->is_array()) {
            if (i < items->size()) sub.push_back(&items->as_array()[i]);  // draft-07 tuples
          } else if (items != nullptr) {
            sub.push_back(items);
          }
        }
        size_t len = pointer.size();
        pointer += '/';
        pointer += std::to_string(i);
        Walk(v.as_array()[i], sub, pointer, depth + 1);
        pointer.resize(len);
      }
      return;
    }
    if (v.is_null() || (v.is_string() && v.as_string().empty())) return;
    out_.push_back(Leaf{pointer, &v, KindOf(v, schemas)});
  }

 private:
  // The schema and every subschema that applies to the same value.
  void Expand(const Json* s, std::vector<const Json*>& out, int depth) {
    if (s == nullptr || !s->is_object() || depth > 16 || out.size() >= kMaxSchemasPerValue) return;
    if (std::find(out.begin(), out.end(), s) != out.end()) return;
    out.push_back(s);
    if (const Json* ref = s->find("$ref"); ref != nullptr && ref->is_string()) {
      Expand(ResolveLocalRef(root_, ref->as_string()), out, depth + 1);
    }
    for (const char* key : {"allOf", "anyOf", "oneOf"}) {
      const Json* list = s->find(key);
      if (list == nullptr || !list->is_array()) continue;
      for (const Json& branch : list->as_array()) Expand(&branch, out, depth + 1);
    }
    for (const char* key : {"then", "else"}) Expand(s->find(key), out, depth + 1);
  }

  static LeafKind KindOf(const Json& v, const std::vector<const Json*>& schemas) {
    if (v.is_bool()) return LeafKind::kClassification;
    bool date = false;
    for (const Json* s : schemas) {
      if (s->contains("const")) return LeafKind::kClassification;
      if (const Json* e = s->find("enum"); e != nullptr && e->is_array()) {
        for (const Json& option : e->as_array()) {
          if (option == v) return LeafKind::kClassification;
        }
      }
      const Json* f = s->find("format");
      if (f != nullptr && f->is_string()) {
        const std::string& name = f->as_string();
        date = date || name == "date" || name == "date-time" || name == "time";
      }
    }
    if (v.is_number()) return LeafKind::kNumber;
    if (date || ParseIsoValue(v.as_string())) return LeafKind::kDateTime;
    return LeafKind::kText;
  }

  const Json& root_;
  std::vector<Leaf>& out_;
};

}  // namespace

std::vector<Leaf> CollectLeaves(const Json& data, const Json& schema) {
  std::vector<Leaf> out;
  Collector c(schema, out);
  std::string pointer;
  c.Walk(data, {&schema}, pointer, 0);
  return out;
}

}  // namespace structure::pipeline::evidence
