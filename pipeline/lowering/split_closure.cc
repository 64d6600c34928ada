#include "pipeline/lowering/split_closure.h"

#include "base/json_pointer.h"
#include "pipeline/generate/schema_ref.h"
#include "pipeline/lowering/split_schema.h"

namespace structure::pipeline {
namespace {

// Keywords whose members are schemas keyed by a name (which may be "enum" or "const").
bool IsNameMap(std::string_view k) {
  return k == "properties" || k == "patternProperties" || k == "$defs" || k == "definitions" ||
         k == "dependentSchemas";
}

// Keywords whose values are data, not schemas.
bool IsData(std::string_view k) {
  return k == "enum" || k == "const" || k == "default" || k == "examples";
}

// Calls visit(node, pointer) for every schema node below `root` (itself included), reading
// name maps as maps and skipping data. `Node` is Json or const Json.
template <typename Node, typename Visit>
void ForEachSchema(Node& root, const std::string& at, Visit&& visit) {
  struct Item {
    Node* node;
    std::string path;
    bool names;  // the members are schemas keyed by name
  };
  std::vector<Item> work{{&root, at, false}};
  while (!work.empty()) {
    Item cur = std::move(work.back());
    work.pop_back();
    if (cur.node->is_array()) {
      for (size_t i = 0; i < cur.node->size(); ++i)
        work.push_back({&cur.node->as_array()[i], cur.path + "/" + std::to_string(i), false});
      continue;
    }
    if (!cur.node->is_object()) continue;
    if (!cur.names) visit(*cur.node, cur.path);
    for (auto& [k, v] : cur.node->as_object()) {
      if (!cur.names && IsData(k)) continue;
      work.push_back({&v, cur.path + "/" + EscapePointerToken(k), !cur.names && IsNameMap(k)});
    }
  }
}

}  // namespace

void DefsClosure::Scan(Json& part) {
  std::vector<Json*> refs;
  ForEachSchema(part, "", [&](Json& node, const std::string&) {
    if (Json* ref = node.find("$ref"); ref && ref->is_string()) refs.push_back(ref);
  });
  for (Json* ref : refs) Follow(*ref);
}

void DefsClosure::AddTo(Json& part) {
  for (const char* container : {"$defs", "definitions"}) {
    const Json* defs = root_.find(container);
    Json out = Json::MakeObject();
    if (defs && defs->is_object())
      for (const auto& [name, sub] : defs->as_object())
        if (auto it = copies_.find(std::string(container) + "/" + name); it != copies_.end())
          out.set(name, std::move(it->second));
    if (std::string_view(container) == "$defs")
      for (auto& [name, copy] : extra_) out.set(name, std::move(copy));
    if (out.size() > 0) part.set(container, std::move(out));
  }
}

void DefsClosure::Follow(Json& ref) {
  const Json* target = ResolveLocalRef(root_, ref.as_string());
  if (!target) return;
  IndexPointers();
  auto at = pointers_.find(target);
  if (at == pointers_.end()) return;
  std::vector<std::string> tokens = PointerTokens(at->second);
  if (tokens.size() >= 2 && (tokens[0] == "$defs" || tokens[0] == "definitions")) {
    std::string key = tokens[0] + "/" + tokens[1];
    if (copies_.count(key)) return;
    copies_[key] = *root_.find(tokens[0])->find(tokens[1]);
    Scan(copies_[key]);  // map nodes keep their address while others are added
    return;
  }
  auto named = synthetic_.find(target);
  if (named == synthetic_.end()) {
    std::string name = "__split_ref_" + std::to_string(synthetic_.size() + 1);
    named = synthetic_.emplace(target, name).first;
    Json copy = *target;
    extra_.emplace_back(name, Json());
    Scan(copy);  // may add to extra_: the copy is stored after
    for (auto& [n, c] : extra_)
      if (n == name) c = std::move(copy);
  }
  ref = Json("#/$defs/" + named->second);
}

void DefsClosure::IndexPointers() {
  if (!pointers_.empty()) return;
  ForEachSchema(root_, "",
                [&](const Json& node, const std::string& path) { pointers_.emplace(&node, path); });
}

}  // namespace structure::pipeline
