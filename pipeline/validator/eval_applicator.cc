// Evaluator: in-place applicators that branch (anyOf, oneOf, if/then/else) and $ref /
// $dynamicRef.
#include <algorithm>

#include "pipeline/validator/evaluator.h"

namespace structure::pipeline::validator_internal {

std::vector<std::string> Evaluator::BranchSummaries(const Keyword& k, const element& e) {
  std::vector<std::string> out;
  std::string prefix = (path_.Pointer().empty() ? std::string("(root)") : path_.Pointer()) + ": ";
  for (const Node* sub : k.subs) {
    std::vector<ValidationError> branch;
    {
      Silence silence(this, &branch);
      Eval(sub, e, nullptr);
    }
    if (aborted_) break;
    if (branch.empty()) continue;
    std::string m = branch.front().message;
    if (m.starts_with(prefix))
      m = m.substr(prefix.size());
    else if (!branch.front().instance_path.empty())
      m = branch.front().message;
    out.push_back(std::move(m));
    if (out.size() >= 4) break;
  }
  return out;
}

bool Evaluator::CheckAnyOf(const Keyword& k, const element& e, Annot* annot) {
  bool any = false;
  {
    Silence silence(this);
    for (const Node* sub : k.subs) {
      if (annot == nullptr) {
        if (Eval(sub, e, nullptr)) {
          any = true;
          break;
        }
      } else {
        Annot branch;
        if (Eval(sub, e, &branch)) {
          any = true;
          annot->Merge(branch);
        }
      }
      if (aborted_) return false;
    }
  }
  if (any) return true;
  if (errors_ && !aborted_) {
    std::vector<std::string> summaries = BranchSummaries(k, e);
    std::string text = "value must match at least one schema in anyOf";
    for (size_t i = 0; i < summaries.size(); ++i) text += (i == 0 ? ": " : "; ") + summaries[i];
    reporter_.Add(errors_, k.name, k.path, Json::MakeObject(), text, &e);
  }
  return false;
}

bool Evaluator::CheckOneOf(const Keyword& k, const element& e, Annot* annot) {
  std::vector<size_t> passing;
  Annot merged;
  {
    Silence silence(this);
    for (size_t i = 0; i < k.subs.size(); ++i) {
      Annot branch;
      if (Eval(k.subs[i], e, annot ? &branch : nullptr)) {
        passing.push_back(i);
        if (annot) merged.Merge(branch);
        if (passing.size() > 1) break;
      }
      if (aborted_) return false;
    }
  }
  if (passing.size() == 1) {
    if (annot) annot->Merge(merged);
    return true;
  }
  if (errors_ && !aborted_) {
    Json params = Json::MakeObject();
    std::string text;
    if (passing.empty()) {
      std::vector<std::string> summaries = BranchSummaries(k, e);
      text = "value must match exactly one schema in oneOf (matched none)";
      for (size_t i = 0; i < summaries.size(); ++i) text += (i == 0 ? ": " : "; ") + summaries[i];
    } else {
      Json list = Json::MakeArray();
      for (size_t p : passing) list.push_back(static_cast<int64_t>(p));
      params.set("passingSchemas", list);
      text = "value must match exactly one schema in oneOf (matched " + std::to_string(passing[0]) +
             " and " + std::to_string(passing[1]) + ")";
    }
    reporter_.Add(errors_, k.name, k.path, std::move(params), text, &e);
  }
  return false;
}

bool Evaluator::CheckIf(const Keyword& k, const element& e, Annot* annot) {
  Annot cond;
  bool matched;
  {
    Silence silence(this);
    matched = Eval(k.sub, e, annot ? &cond : nullptr);
  }
  if (aborted_) return false;
  if (matched) {
    if (annot) annot->Merge(cond);
    return k.then_node == nullptr || Eval(k.then_node, e, annot);
  }
  return k.else_node == nullptr || Eval(k.else_node, e, annot);
}

bool Evaluator::CheckRef(const Keyword& k, const element& e, Annot* annot) {
  const Node* target = k.sub;
  if (k.dynamic) {
    for (const Resource* r : scope_) {
      auto it = r->dynamic_anchors.find(k.anchor);
      if (it != r->dynamic_anchors.end()) {
        target = it->second;
        break;
      }
    }
  }
  if (++depth_ > options_.max_depth) {
    --depth_;
    Abort("maxDepth",
          "$ref chain exceeds the validator's limit of " + std::to_string(options_.max_depth) +
              " levels (recursive schema?)",
          e);
    return false;
  }
  bool ok = Eval(target, e, annot);
  --depth_;
  return ok;
}

}  // namespace structure::pipeline::validator_internal
