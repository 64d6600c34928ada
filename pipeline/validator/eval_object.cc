// Evaluator: object keywords (properties and their kin, required, dependent*, propertyNames,
// unevaluatedProperties).
#include <algorithm>

#include "pipeline/validator/evaluator.h"

namespace structure::pipeline::validator_internal {
namespace {

// Finds name among k.named: linear for a few properties, hashed beyond.
int FindNamed(const Keyword& k, std::string_view name) {
  if (!k.named_index.empty()) {
    auto it = k.named_index.find(name);
    return it == k.named_index.end() ? -1 : static_cast<int>(it->second);
  }
  for (size_t i = 0; i < k.named_count; ++i) {
    if (BytesEqual(k.named[i].name, name)) return static_cast<int>(i);
  }
  return -1;
}

// FindNamed, trying *next first: instances usually list members in the schema's order, so the
// property after the last match is the likely one.
[[gnu::always_inline]] inline int MatchNamed(const Keyword& k, std::string_view name,
                                             size_t* next) {
  if (k.predict_names && *next < k.named_count && BytesEqual(k.named[*next].name, name)) {
    return static_cast<int>((*next)++);
  }
  int idx = FindNamed(k, name);
  if (idx >= 0) *next = static_cast<size_t>(idx) + 1;
  return idx;
}

// The bit of property idx in a fused `required`'s mask (which only exists for <= 64 properties).
uint64_t NamedBit(int idx) { return idx >= 0 ? uint64_t{1} << (idx & 63) : 0; }

// The property index of each of an object's first members, found while checking a fused
// `required` and reused by the pass that evaluates them.
struct MemberIndexes {
  static constexpr size_t kCapacity = 32;
  int8_t index[kCapacity];
  size_t count = 0;
  size_t next = 0;  // MatchNamed's prediction after the last cached member
};

// Whether obj has every name of the `required` fused into members k (at most 64 properties).
bool HasFusedRequired(const Keyword& k, const simdjson::dom::object& obj, MemberIndexes* cache) {
  uint64_t found = 0;
  for (auto field : obj) {
    int idx = MatchNamed(k, field.key, &cache->next);
    if (cache->count < MemberIndexes::kCapacity)
      cache->index[cache->count++] = static_cast<int8_t>(idx);
    found |= NamedBit(idx);
    if ((found & k.required_mask) == k.required_mask) return true;
  }
  return false;
}

bool HasKey(const simdjson::dom::object& obj, std::string_view key) {
  for (auto field : obj) {
    if (BytesEqual(field.key, key)) return true;
  }
  return false;
}

}  // namespace

bool Evaluator::CheckRequired(const Keyword& k, const element& e) {
  simdjson::dom::object obj = e.get_object().value_unsafe();
  if (k.names.size() > 2 && k.names.size() <= 64) {
    // One pass over the members instead of one scan per required name.
    uint64_t found = 0;
    uint64_t all = k.names.size() == 64 ? ~uint64_t{0} : (uint64_t{1} << k.names.size()) - 1;
    for (auto field : obj) {
      for (size_t i = 0; i < k.names.size(); ++i) {
        if (BytesEqual(k.names[i], field.key)) {
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
      reporter_.Add(errors_, k.name, k.path, std::move(params),
                    "missing required property " + Quoted(name), nullptr);
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
        reporter_.Add(
            errors_, k.name, k.path, std::move(params),
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
  bool valid = true;
  // A fused `required` (validator_plan.h) reports through its own keyword, in schema order. When
  // it comes first: with all errors, a first pass checks it; when stopping at the first error,
  // it is checked after the pass over the members, whose error (if any) it then replaces. Steps
  // spent stay spent, and a limit hit in that pass ends the run as any other.
  bool required_first = k.required != nullptr && k.required_first;
  bool deferred = required_first && !Continue();
  size_t errors_before = deferred && errors_ != nullptr ? errors_->size() : 0;
  MemberIndexes cache;
  if (required_first && !deferred && !HasFusedRequired(k, obj, &cache))
    valid = CheckRequired(*k.required, e);
  size_t n = annot != nullptr ? obj.size() : 0;
  size_t i = 0;
  size_t next = cache.next;
  uint64_t found = 0;
  auto it = obj.begin();
  auto end = obj.end();
  bool stopped = false;
  for (; it != end; ++it) {
    auto field = *it;
    bool matched = false;
    bool ok = true;
    path_.PushKey(field.key);
    if (k.named_count != 0) {
      int idx = i < cache.count ? cache.index[i] : MatchNamed(k, field.key, &next);
      if (idx >= 0) {
        matched = true;
        found |= NamedBit(idx);
        ok = EvalChildInline(k.named[idx].node, field.value, e);
      }
    }
    if (!k.patterns.empty() || (!matched && k.sub != nullptr))
      ok = EvalOtherMember(k, field, e, ok, &matched);
    path_.Pop();
    if (annot != nullptr && matched) annot->MarkProp(i, n);
    ++i;
    if (!ok) {
      valid = false;
      if (!Continue()) {
        stopped = true;
        ++it;
        break;
      }
    }
  }
  if (k.required == nullptr || (!deferred && (stopped || required_first))) return valid;
  for (; it != end && (found & k.required_mask) != k.required_mask; ++it) {
    found |= NamedBit(MatchNamed(k, (*it).key, &next));
  }
  if ((found & k.required_mask) == k.required_mask) return valid;
  if (deferred) {
    if (aborted_) return false;
    if (errors_ != nullptr) errors_->resize(errors_before);
  }
  return CheckRequired(*k.required, e) && valid;
}

bool Evaluator::EvalOtherMember(const Keyword& k, const simdjson::dom::key_value_pair& field,
                                const element& e, bool ok, bool* matched) {
  for (const PatternNode& p : k.patterns) {
    if (!(ok || Continue())) break;
    if (!p.regex->Search(field.key)) continue;
    *matched = true;
    ok = EvalChild(p.node, field.value, e) && ok;
  }
  if (*matched || k.sub == nullptr) return ok;
  *matched = true;
  if (!k.sub->is_false) return EvalChild(k.sub, field.value, e);
  if (errors_) {
    path_.Pop();  // reported at the object
    Json params = Json::MakeObject();
    params.set("additionalProperty", std::string(field.key));
    reporter_.Add(errors_, k.rest_name, k.rest_path, std::move(params),
                  "property " + Quoted(field.key) + " is not allowed", nullptr);
    path_.PushKey(field.key);
  }
  return false;
}

bool Evaluator::CheckPropertyNames(const Keyword& k, const element& e) {
  simdjson::dom::object obj = e.get_object().value_unsafe();
  bool valid = true;
  // Each name is parsed into a string element, one at a time (a string instance never reaches
  // this keyword again), by a parser of its own: the instance may live in the thread's shared one.
  thread_local simdjson::dom::parser parser;
  std::string text;
  for (auto field : obj) {
    text.clear();
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
                        "property " + Quoted(field.key) + " is not allowed (unevaluatedProperties)",
                        nullptr);
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

}  // namespace structure::pipeline::validator_internal
