#include "pipeline/generate/schema_ref.h"

#include <cstdlib>

namespace structure::pipeline {
namespace {

std::string PercentDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size()) {
      char hex[3] = {s[i + 1], s[i + 2], 0};
      char* end = nullptr;
      long v = std::strtol(hex, &end, 16);
      if (end == hex + 2) {
        out += static_cast<char>(v);
        i += 2;
        continue;
      }
    }
    out += s[i];
  }
  return out;
}

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

std::string EscapePointerToken(std::string_view token) {
  std::string out;
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string UnescapePointerToken(std::string_view raw) {
  std::string token;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == '~' && i + 1 < raw.size()) {
      token += raw[i + 1] == '1' ? '/' : '~';
      ++i;
    } else {
      token += raw[i];
    }
  }
  return token;
}

const Json* ResolvePointer(const Json& root, std::string_view pointer) {
  const Json* cur = &root;
  size_t pos = 0;
  while (pos < pointer.size()) {
    if (pointer[pos] != '/') return nullptr;
    size_t next = pointer.find('/', pos + 1);
    if (next == std::string_view::npos) next = pointer.size();
    std::string token = UnescapePointerToken(pointer.substr(pos + 1, next - pos - 1));
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
    pos = next;
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
