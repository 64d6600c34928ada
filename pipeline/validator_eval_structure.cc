// Evaluator: object, array and applicator keywords.
#include <algorithm>
#include <numeric>

#include "pipeline/validator_evaluator.h"

namespace structure::pipeline::validator_internal {
namespace {

// Finds name among k.named: linear for a few properties, hashed beyond.
int FindNamed(const Keyword& k, std::string_view name) {
  if (!k.named_index.empty()) {
    auto it = k.named_index.find(name);
    return it == k.named_index.end() ? -1 : static_cast<int>(it->second);
  }
  for (size_t i = 0; i < k.named.size(); ++i) {
    const std::string& n = k.named[i].name;
    if (n.size() == name.size() && (n.empty() || (n[0] == name[0] && std::memcmp(n.data(), name.data(), n.size()) == 0))) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

bool HasKey(const simdjson::dom::object& obj, std::string_view key) {
  for (auto field : obj) {
    if (field.key == key) return true;
  }
  return false;
}

}  // namespace

bool Evaluator::CheckUnique(const Keyword& k, const element& e) {
  simdjson::dom::array arr = e.get_array().value_unsafe();
  element small[16];
  std::vector<element> large;
  size_t n = 0;
  for (element item : arr) {
    if (n < 16) {
      small[n] = item;
    } else {
      if (n == 16) large.assign(small, small + 16);
      large.push_back(item);
    }
    ++n;
  }
  const element* items = n <= 16 ? small : large.data();
  size_t first = 0, second = 0;
  bool dup = false;
  if (n <= 16) {
    for (size_t i = 0; i < n && !dup; ++i) {
      for (size_t j = i + 1; j < n; ++j) {
        if (ElementsEqual(items[i], items[j])) {
          first = i, second = j, dup = true;
          break;
        }
      }
    }
  } else {
    std::vector<std::pair<uint64_t, size_t>> hashed(n);
    for (size_t i = 0; i < n; ++i) hashed[i] = {ElementHash(items[i]), i};
    std::sort(hashed.begin(), hashed.end());
    for (size_t i = 0; i < n && !dup; ++i) {
      for (size_t j = i + 1; j < n && hashed[j].first == hashed[i].first; ++j) {
        if (ElementsEqual(items[hashed[i].second], items[hashed[j].second])) {
          first = std::min(hashed[i].second, hashed[j].second);
          second = std::max(hashed[i].second, hashed[j].second);
          dup = true;
          break;
        }
      }
    }
  }
  if (!dup) return true;
  if (errors_) {
    Json params = Json::MakeObject();
    params.set("i", static_cast<int64_t>(first));
    params.set("j", static_cast<int64_t>(second));
    reporter_.Add(errors_, k.name, k.path, std::move(params),
                  "array items must be unique (items " + std::to_string(first) + " and " +
                      std::to_string(second) + " are equal)",
                  &e);
  }
  return false;
}

bool Evaluator::CheckItems(const Keyword& k, const element& e, Annot* annot) {
  simdjson::dom::array arr = e.get_array().value_unsafe();
  size_t prefix = k.subs.size();
  size_t i = 0;
  bool valid = true;
  for (element item : arr) {
    const Node* node = i < prefix ? k.subs[i] : k.sub;
    if (node == nullptr) break;
    if (i >= prefix && node->is_false) {
      if (errors_) {
        Json params = Json::MakeObject();
        params.set("limit", static_cast<int64_t>(prefix));
        reporter_.Add(errors_, k.rest_name, k.rest_path, std::move(params),
                      "array must have at most " + std::to_string(prefix) + " items (has " +
                          std::to_string(arr.size()) + ")",
                      nullptr);
      }
      return false;
    }
    path_.PushIndex(i);
    bool ok = EvalChild(node, item, e);
    path_.Pop();
    if (!ok) {
      valid = false;
      if (!Continue()) return false;
    }
    ++i;
  }
  if (annot != nullptr) {
    annot->items = std::max(annot->items, std::min(i, prefix));
    if (k.sub != nullptr) annot->all_items = true;
  }
  return valid;
}

bool Evaluator::CheckContains(const Keyword& k, const element& e, Annot* annot) {
  simdjson::dom::array arr = e.get_array().value_unsafe();
  size_t n = arr.size();
  uint64_t matches = 0;
  size_t i = 0;
  bool need_all = annot != nullptr || k.count2 != UINT64_MAX;
  {
    Silence silence(this);
    for (element item : arr) {
      ++depth_;
      bool ok = depth_ <= options_.max_depth && Eval(k.sub, item, nullptr);
      --depth_;
      if (ok) {
        ++matches;
        if (annot != nullptr) annot->MarkItem(i, n);
        if (!need_all && matches >= k.count) break;
      }
      ++i;
    }
  }
  if (aborted_) return false;
  if (matches < k.count) {
    if (errors_) {
      Json params = Json::MakeObject();
      params.set("minContains", static_cast<int64_t>(k.count));
      reporter_.Add(errors_, k.count == 1 ? "contains" : "minContains", k.path, std::move(params),
                    "array must contain at least " + std::to_string(k.count) +
                        " item(s) matching the \"contains\" schema (found " + std::to_string(matches) + ")",
                    &e);
    }
    return false;
  }
  if (matches > k.count2) {
    if (errors_) {
      Json params = Json::MakeObject();
      params.set("maxContains", static_cast<int64_t>(k.count2));
      reporter_.Add(errors_, "maxContains", k.path, std::move(params),
                    "array must contain at most " + std::to_string(k.count2) +
                        " item(s) matching the \"contains\" schema (found " + std::to_string(matches) + ")",
                    &e);
    }
    return false;
  }
  return true;
}

bool Evaluator::CheckUnevaluatedItems(const Keyword& k, const element& e, Annot* annot) {
  if (annot->all_items) return true;
  simdjson::dom::array arr = e.get_array().value_unsafe();
  bool valid = true;
  size_t i = 0;
  for (element item : arr) {
    bool evaluated = i < annot->items || (i < annot->item_set.size() && annot->item_set[i]);
    if (!evaluated) {
      path_.PushIndex(i);
      bool ok;
      if (k.sub->is_false) {
        if (errors_) {
          reporter_.Add(errors_, k.name, k.path, Json::MakeObject(),
                        "item is not allowed here (unevaluatedItems)" + std::string(" (was ") +
                            CompactTruncated(item) + ")",
                        &item);
        }
        ok = false;
      } else {
        ok = EvalChild(k.sub, item, e);
      }
      path_.Pop();
      if (!ok) {
        valid = false;
        if (!Continue()) return false;
      }
    }
    ++i;
  }
  annot->all_items = true;
  return valid;
}

bool Evaluator::CheckRequired(const Keyword& k, const element& e) {
  simdjson::dom::object obj = e.get_object().value_unsafe();
  if (k.names.size() > 2 && k.names.size() <= 64) {
    // One pass over the members instead of one scan per required name.
    uint64_t found = 0;
    uint64_t all = k.names.size() == 64 ? ~uint64_t{0} : (uint64_t{1} << k.names.size()) - 1;
    for (auto field : obj) {
      for (size_t i = 0; i < k.names.size(); ++i) {
        const std::string& n = k.names[i];
        if (n.size() == field.key.size() && (n.empty() || (n[0] == field.key[0] && std::memcmp(n.data(), field.key.data(), n.size()) == 0))) {
          found |= uint64_t{1} << i;
          break;
        }
      }
      if (found == all) return true;
    }
  }
  bool valid = true;
  for (const std::string& name : k.names) {
    if (HasKey(obj, name)) continue;
    valid = false;
    if (errors_) {
      Json params = Json::MakeObject();
      params.set("missingProperty", name);
      reporter_.Add(errors_, k.name, k.path, std::move(params), "missing required property " + Quoted(name),
                    nullptr);
    }
    if (!Continue()) return false;
  }
  return valid;
}

bool Evaluator::CheckDependentRequired(const Keyword& k, const element& e) {
  simdjson::dom::object obj = e.get_object().value_unsafe();
  bool valid = true;
  for (const auto& [trigger, names] : k.dependencies) {
    if (!HasKey(obj, trigger)) continue;
    for (const std::string& name : names) {
      if (HasKey(obj, name)) continue;
      valid = false;
      if (errors_) {
        Json params = Json::MakeObject();
        params.set("property", trigger);
        params.set("missingProperty", name);
        reporter_.Add(errors_, k.name, k.path, std::move(params),
                      "property " + Quoted(name) + " is required when " + Quoted(trigger) + " is present",
                      nullptr);
      }
      if (!Continue()) return false;
    }
  }
  return valid;
}

bool Evaluator::CheckDependentSchemas(const Keyword& k, const element& e, Annot* annot) {
  simdjson::dom::object obj = e.get_object().value_unsafe();
  bool valid = true;
  for (const NamedNode& dep : k.named) {
    if (!HasKey(obj, dep.name)) continue;
    if (!Eval(dep.node, e, annot)) {
      valid = false;
      if (!Continue()) return false;
    }
  }
  return valid;
}

bool Evaluator::CheckMembers(const Keyword& k, const element& e, Annot* annot) {
  simdjson::dom::object obj = e.get_object().value_unsafe();
  size_t n = annot != nullptr ? obj.size() : 0;
  bool valid = true;
  size_t i = 0;
  for (auto field : obj) {
    bool matched = false;
    bool ok = true;
    path_.PushKey(field.key);
    if (!k.named.empty()) {
      int idx = FindNamed(k, field.key);
      if (idx >= 0) {
        matched = true;
        ok = EvalChild(k.named[idx].node, field.value, e);
      }
    }
    for (const PatternNode& p : k.patterns) {
      if (!(ok || Continue())) break;
      if (!p.regex->Search(field.key)) continue;
      matched = true;
      ok = EvalChild(p.node, field.value, e) && ok;
    }
    if (!matched && k.sub != nullptr) {
      if (k.sub->is_false) {
        path_.Pop();
        if (errors_) {
          Json params = Json::MakeObject();
          params.set("additionalProperty", std::string(field.key));
          reporter_.Add(errors_, k.rest_name, k.rest_path, std::move(params),
                        "property " + Quoted(field.key) + " is not allowed", nullptr);
        }
        path_.PushKey(field.key);
        ok = false;
      } else {
        ok = EvalChild(k.sub, field.value, e);
      }
      matched = true;
    }
    path_.Pop();
    if (annot != nullptr && matched) annot->MarkProp(i, n);
    if (!ok) {
      valid = false;
      if (!Continue()) return false;
    }
    ++i;
  }
  return valid;
}

bool Evaluator::CheckPropertyNames(const Keyword& k, const element& e) {
  simdjson::dom::object obj = e.get_object().value_unsafe();
  bool valid = true;
  simdjson::dom::parser parser;  // the outer document may live in the thread's shared parser
  for (auto field : obj) {
    std::string text;
    AppendJsonString(text, field.key);
    element name;
    if (parser.parse(text).get(name) != simdjson::SUCCESS) continue;
    if (!Eval(k.sub, name, nullptr)) {
      valid = false;
      if (!Continue()) return false;
    }
  }
  return valid;
}

bool Evaluator::CheckUnevaluatedProperties(const Keyword& k, const element& e, Annot* annot) {
  if (annot->all_props) return true;
  simdjson::dom::object obj = e.get_object().value_unsafe();
  bool valid = true;
  size_t i = 0;
  for (auto field : obj) {
    bool evaluated = i < annot->props.size() && annot->props[i];
    if (!evaluated) {
      bool ok;
      if (k.sub->is_false) {
        if (errors_) {
          Json params = Json::MakeObject();
          params.set("unevaluatedProperty", std::string(field.key));
          reporter_.Add(errors_, k.name, k.path, std::move(params),
                        "property " + Quoted(field.key) + " is not allowed (unevaluatedProperties)", nullptr);
        }
        ok = false;
      } else {
        path_.PushKey(field.key);
        ok = EvalChild(k.sub, field.value, e);
        path_.Pop();
      }
      if (!ok) {
        valid = false;
        if (!Continue()) return false;
      }
    }
    ++i;
  }
  annot->all_props = true;
  return valid;
}

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
    if (m.starts_with(prefix)) m = m.substr(prefix.size());
    else if (!branch.front().instance_path.empty()) m = branch.front().message;
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
      text = "value must match exactly one schema in oneOf (matched " + std::to_string(passing[0]) + " and " +
             std::to_string(passing[1]) + ")";
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
    Abort("maxDepth", "$ref chain exceeds the validator's limit of " + std::to_string(options_.max_depth) +
                          " levels (recursive schema?)", e);
    return false;
  }
  bool ok = Eval(target, e, annot);
  --depth_;
  return ok;
}

}  // namespace structure::pipeline::validator_internal
