#include "pipeline/generate/schema_ref.h"

#include <cstdlib>

#include "base/hex.h"
#include "base/json_pointer.h"

namespace structure::pipeline {
namespace {

const Json* FindAnchor(const Json& node, std::string_view name, int depth) {
  if (depth > 64) return nullptr;
  if (node.is_object()) {
    if (const Json* a = node.find("$anchor"); a && a->is_string() && a->as_string() == name)
      return &node;
    for (const char* key : {"$id", "id"}) {
      const Json* id = node.find(key);
      if (id && id->is_string() && id->as_string().size() == name.size() + 1 &&
          id->as_string()[0] == '#' && std::string_view(id->as_string()).substr(1) == name)
        return &node;
    }
    for (const auto& [k, v] : node.as_object()) {
      if (k == "enum" || k == "const" || k == "examples" || k == "default") continue;
      if (const Json* r = FindAnchor(v, name, depth + 1)) return r;
    }
  } else if (node.is_array()) {
    for (const Json& v : node.as_array())
      if (const Json* r = FindAnchor(v, name, depth + 1)) return r;
  }
  return nullptr;
}

}  // namespace

const Json* ResolvePointer(const Json& root, std::string_view pointer) {
  auto tokens = SplitPointer(pointer);
  if (!tokens) return nullptr;
  const Json* cur = &root;
  for (const std::string& token : *tokens) {
    if (cur->is_object()) {
      cur = cur->find(token);
    } else if (cur->is_array()) {
      char* end = nullptr;
      unsigned long idx = std::strtoul(token.c_str(), &end, 10);
      if (token.empty() || *end != '\0' || idx >= cur->size()) return nullptr;
      cur = &cur->as_array()[idx];
    } else {
      return nullptr;
    }
    if (cur == nullptr) return nullptr;
  }
  return cur;
}

const Json* ResolveLocalRef(const Json& root, std::string_view ref) {
  size_t hash = ref.find('#');
  std::string_view base = hash == std::string_view::npos ? ref : ref.substr(0, hash);
  if (!base.empty()) {
    const Json* id = root.is_object() ? root.find("$id") : nullptr;
    if (!id && root.is_object()) id = root.find("id");
    if (!id || !id->is_string()) return nullptr;
    std::string_view root_id = id->as_string();
    if (size_t h = root_id.find('#'); h != std::string_view::npos) root_id = root_id.substr(0, h);
    if (root_id != base) return nullptr;
  }
  if (hash == std::string_view::npos) return &root;
  std::string fragment = PercentDecode(ref.substr(hash + 1));
  if (fragment.empty()) return &root;
  if (fragment[0] == '/') return ResolvePointer(root, fragment);
  return FindAnchor(root, fragment, 0);
}

}  // namespace structure::pipeline
