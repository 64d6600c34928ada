// Evaluator: array keywords (items / prefixItems, contains, uniqueItems, unevaluatedItems).
#include <algorithm>

#include "pipeline/validator/evaluator.h"

namespace structure::pipeline::validator_internal {

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
    bool ok = EvalChildInline(node, item, e);
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
                        " item(s) matching the \"contains\" schema (found " +
                        std::to_string(matches) + ")",
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
                        " item(s) matching the \"contains\" schema (found " +
                        std::to_string(matches) + ")",
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

}  // namespace structure::pipeline::validator_internal
