// CompileSchema: turns schema documents into Nodes. The walk is iterative (a work list of
// schema locations), so neither deep schemas nor $ref cycles recurse on the C++ stack.
#include <unordered_map>

#include "base/json_pointer.h"
#include "pipeline/validator/compiler.h"
#include "pipeline/validator/plan.h"
#include "pipeline/validator/uri.h"

namespace structure::pipeline {
namespace validator_internal {

Status Compiler::Run() {
  const Json* root = &out_->documents.front();
  STRUCTURE_RETURN_IF_ERROR(index_.AddDocument(root, "", true));
  out_->root = GetNode(root);
  size_t anchors_done = 0;
  while (!work_.empty() || anchors_done < index_.dynamic_anchors().size()) {
    while (!work_.empty()) {
      auto [node, schema] = work_.back();
      work_.pop_back();
      STRUCTURE_RETURN_IF_ERROR(Fill(node, schema));
    }
    // Dynamic anchors of every loaded resource must exist for $dynamicRef lookups.
    const auto& anchors = index_.dynamic_anchors();
    for (; anchors_done < anchors.size(); ++anchors_done) {
      const auto& [resource, name, schema] = anchors[anchors_done];
      resource->dynamic_anchors.emplace(name, GetNode(schema));
    }
  }
  STRUCTURE_RETURN_IF_ERROR(CheckUnconditionalCycles());
  PlanSchema(out_);
  return Status::Ok();
}

Node* Compiler::GetNode(const Json* schema) {
  auto it = memo_.find(schema);
  if (it != memo_.end()) return it->second;
  out_->nodes.emplace_back();
  Node* node = &out_->nodes.back();
  memo_.emplace(schema, node);
  work_.emplace_back(node, schema);
  return node;
}

std::string Compiler::At(const std::string& path, const std::string& what) {
  return "schema " + (path.empty() ? std::string("(root)") : path) + ": " + what;
}

Status Compiler::Bad(const std::string& path, const std::string& what) {
  return InvalidArgument(At(path, what));
}

Status Compiler::Problem(const std::string& path, const std::string& what) {
  if (options_.strict) return InvalidArgument(At(path, what));
  out_->warnings.push_back(At(path, what));
  return Status::Ok();
}

Keyword& Compiler::Add(Node* node, Kind kind, std::string_view name) {
  node->keywords.emplace_back();
  Keyword& k = node->keywords.back();
  k.kind = kind;
  k.name = std::string(name);
  k.path = node->path;
  AppendPointerToken(k.path, name);
  return k;
}

std::string Compiler::ChildPath(const Node* node, std::string_view key) const {
  std::string p = node->path;
  AppendPointerToken(p, key);
  return p;
}

Result<const EcmaRegex*> Compiler::GetRegex(const std::string& pattern) {
  auto it = regex_cache_.find(pattern);
  if (it != regex_cache_.end()) return it->second;
  Result<std::unique_ptr<EcmaRegex>> compiled =
      EcmaRegex::Compile(pattern, options_.max_regex_steps);
  if (!compiled.ok()) return compiled.status();
  if ((*compiled)->uses_backtracking()) {
    if (options_.reject_backtracking_patterns) {
      return InvalidArgument("pattern \"" + pattern +
                             "\" needs look-around or back references (rejected by option)");
    }
    out_->warnings.push_back("pattern \"" + pattern + "\" runs on the bounded backtracking engine");
  }
  out_->regexes.push_back(std::move(*compiled));
  const EcmaRegex* raw = out_->regexes.back().get();
  regex_cache_.emplace(pattern, raw);
  return raw;
}

Result<Node*> Compiler::ResolveRef(const Location& loc, const std::string& ref,
                                   std::string* resolved) {
  *resolved = ResolveUri(loc.base, ref);
  Result<const Json*> target = index_.Resolve(*resolved);
  if (!target.ok()) return target.status();
  return GetNode(*target);
}

Status Compiler::Fill(Node* node, const Json* schema) {
  const Location* loc = index_.Find(schema);
  if (loc == nullptr) return Internal("schema location was not indexed");
  node->path = loc->path;
  node->resource = loc->resource;
  if (schema->is_bool()) {
    node->is_false = !schema->as_bool();
    return Status::Ok();
  }
  const Json::Object& obj = schema->as_object();
  const Dialect& d = loc->dialect;
  bool legacy = IsLegacy(d.draft);
  if (legacy && schema->contains("$ref")) {
    return CompileKeyword(node, *schema, *loc, "$ref", *schema->find("$ref"));
  }
  for (const auto& [key, value] : obj) {
    if (key == "unevaluatedProperties" || key == "unevaluatedItems") continue;
    STRUCTURE_RETURN_IF_ERROR(CompileKeyword(node, *schema, *loc, key, value));
  }
  if (!legacy) {
    for (std::string_view key : {"unevaluatedItems", "unevaluatedProperties"}) {
      const Json* value = schema->find(key);
      if (value == nullptr) continue;
      if (!value->is_object() && !value->is_bool()) {
        STRUCTURE_RETURN_IF_ERROR(Bad(ChildPath(node, key), "must be a schema"));
        continue;
      }
      Keyword& k = Add(
          node, key == "unevaluatedItems" ? Kind::kUnevaluatedItems : Kind::kUnevaluatedProperties,
          key);
      k.sub = GetNode(value);
      node->has_unevaluated = true;
    }
  }
  return Status::Ok();
}

Status Compiler::CheckUnconditionalCycles() {
  std::unordered_map<const Node*, int> color;  // 1 = on stack, 2 = done
  for (Node& start : out_->nodes) {
    if (color[&start] != 0) continue;
    std::vector<std::pair<const Node*, size_t>> stack{{&start, 0}};
    color[&start] = 1;
    while (!stack.empty()) {
      auto& [node, next] = stack.back();
      std::vector<const Node*> edges;
      for (const Keyword& k : node->keywords) {
        if (k.kind == Kind::kRef || k.kind == Kind::kDynamicRef) edges.push_back(k.sub);
        if (k.kind == Kind::kAllOf) edges.insert(edges.end(), k.subs.begin(), k.subs.end());
      }
      if (next >= edges.size()) {
        color[node] = 2;
        stack.pop_back();
        continue;
      }
      const Node* child = edges[next++];
      if (color[child] == 1) {
        return InvalidArgument("schema " +
                               (child->path.empty() ? std::string("(root)") : child->path) +
                               ": $ref cycle that never reaches an instance keyword (via " +
                               (node->path.empty() ? std::string("(root)") : node->path) + ")");
      }
      if (color[child] == 0) {
        color[child] = 1;
        stack.emplace_back(child, 0);
      }
    }
  }
  return Status::Ok();
}

}  // namespace validator_internal

Result<std::shared_ptr<const Validator>> CompileSchema(const Json& schema,
                                                       const ValidatorOptions& options) {
  if (!schema.is_object() && !schema.is_bool()) {
    return InvalidArgument("a schema must be an object or a boolean");
  }
  auto compiled = std::make_unique<validator_internal::CompiledSchema>();
  compiled->options = options;
  compiled->documents.push_back(schema);
  validator_internal::Compiler compiler(compiled.get());
  STRUCTURE_RETURN_IF_ERROR(compiler.Run());
  return std::shared_ptr<const Validator>(std::make_shared<Validator>(std::move(compiled)));
}

}  // namespace structure::pipeline
