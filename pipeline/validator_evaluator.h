// Internal: the evaluator class (one per Validate call). Split over validator_eval.cc
// (driver, scalar keywords) and validator_eval_structure.cc (objects, arrays, applicators).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <simdjson.h>

#include "pipeline/validator.h"
#include "pipeline/validator_formats.h"
#include "pipeline/validator_messages.h"
#include "pipeline/validator_schema.h"
#include "pipeline/validator_values.h"

namespace structure::pipeline::validator_internal {

using simdjson::dom::element;
using simdjson::dom::element_type;

// Which instance members / items the schema walk has evaluated (for unevaluated*).
struct Annot {
  std::vector<bool> props;
  bool all_props = false;
  size_t items = 0;
  bool all_items = false;
  std::vector<bool> item_set;

  void MarkProp(size_t i, size_t n) {
    if (props.size() < n) props.resize(n);
    props[i] = true;
  }
  void MarkItem(size_t i, size_t n) {
    if (item_set.size() < n) item_set.resize(n);
    item_set[i] = true;
  }
  void Merge(const Annot& o) {
    if (props.size() < o.props.size()) props.resize(o.props.size());
    for (size_t i = 0; i < o.props.size(); ++i) props[i] = props[i] || o.props[i];
    all_props = all_props || o.all_props;
    items = std::max(items, o.items);
    all_items = all_items || o.all_items;
    if (item_set.size() < o.item_set.size()) item_set.resize(o.item_set.size());
    for (size_t i = 0; i < o.item_set.size(); ++i) item_set[i] = item_set[i] || o.item_set[i];
  }
};

class Evaluator {
 public:
  Evaluator(const CompiledSchema& schema, bool all_errors, std::vector<ValidationError>* errors)
      : schema_(schema), options_(schema.options), all_errors_(all_errors), errors_(errors),
        path_(Scratch().path), reporter_(&path_), scope_(Scratch().scope) {
    path_.Clear();
    scope_.clear();
  }

  bool Run(const element& instance) { return Eval(schema_.root, instance, nullptr); }
  bool aborted() const { return aborted_; }
  ValidationError& limit_error() { return limit_error_; }

 private:
  // Silences error collection for a sub-evaluation; restores on scope exit.
  class Silence {
   public:
    explicit Silence(Evaluator* ev, std::vector<ValidationError>* sink = nullptr)
        : ev_(ev), saved_(ev->errors_), saved_all_(ev->all_errors_) {
      ev->errors_ = sink;
      if (sink != nullptr) ev->all_errors_ = false;
    }
    ~Silence() {
      ev_->errors_ = saved_;
      ev_->all_errors_ = saved_all_;
    }

   private:
    Evaluator* ev_;
    std::vector<ValidationError>* saved_;
    bool saved_all_;
  };

  bool Continue() const { return errors_ != nullptr && all_errors_ && !aborted_; }

  void Abort(const char* keyword, const std::string& text, const element& at) {
    if (aborted_) return;
    aborted_ = true;
    limit_error_ = reporter_.Make(keyword, "", Json::MakeObject(), text, &at);
  }

  bool Descend() {
    if (++depth_ > options_.max_depth) return false;
    return true;
  }

  bool EvalChild(const Node* node, const element& child, const element& parent) {
    if (!Descend()) {
      --depth_;
      Abort("maxDepth", "nesting exceeds the validator's limit of " + std::to_string(options_.max_depth) + " levels",
            parent);
      return false;
    }
    bool ok = Eval(node, child, nullptr);
    --depth_;
    return ok;
  }

  bool Eval(const Node* node, const element& e, Annot* annot) {
    if (aborted_) return false;
    if (++steps_ > options_.max_eval_steps) {
      Abort("maxSteps", "validation exceeded the limit of " + std::to_string(options_.max_eval_steps) +
                            " schema evaluations", e);
      return false;
    }
    if (node->is_false) {
      if (errors_) reporter_.FalseSchema(*node, e, errors_);
      return false;
    }
    bool pushed = false;
    if (scope_.empty() || scope_.back() != node->resource) {
      scope_.push_back(node->resource);
      pushed = true;
    }
    bool valid = node->has_unevaluated ? EvalOwnAnnotations(node, e, annot) : EvalKeywords(node, e, annot);
    if (pushed) scope_.pop_back();
    return valid && !aborted_;
  }

  bool EvalKeywords(const Node* node, const element& e, Annot* annot) {
    bool valid = true;
    for (const Keyword& k : node->keywords) {
      if (!EvalKeyword(k, e, annot)) {
        valid = false;
        if (!Continue()) break;
      }
    }
    return valid;
  }

  // unevaluated* see only this schema's own annotations; merged upward when valid.
  bool EvalOwnAnnotations(const Node* node, const element& e, Annot* annot) {
    Annot local;
    bool valid = EvalKeywords(node, e, &local);
    if (annot != nullptr && valid) annot->Merge(local);
    return valid;
  }

  bool EvalKeyword(const Keyword& k, const element& e, Annot* annot) {
    element_type t = e.type();
    switch (k.kind) {
      case Kind::kType: return CheckType(k, e, t);
      case Kind::kConst:
        if (ElementEqualsJson(e, k.value)) return true;
        return Fail(k, e);
      case Kind::kEnum: return CheckEnum(k, e, t);
      case Kind::kMinimum:
      case Kind::kMaximum:
      case Kind::kExclusiveMinimum:
      case Kind::kExclusiveMaximum:
      case Kind::kMultipleOf: return CheckNumber(k, e, t);
      case Kind::kMinLength:
      case Kind::kMaxLength:
      case Kind::kPattern:
      case Kind::kFormat: return t == element_type::STRING ? CheckString(k, e) : true;
      case Kind::kMinItems:
      case Kind::kMaxItems:
        if (t != element_type::ARRAY) return true;
        return CheckCount(k, e, e.get_array().value_unsafe().size(), k.kind == Kind::kMinItems);
      case Kind::kMinProperties:
      case Kind::kMaxProperties:
        if (t != element_type::OBJECT) return true;
        return CheckCount(k, e, e.get_object().value_unsafe().size(), k.kind == Kind::kMinProperties);
      case Kind::kUniqueItems: return t == element_type::ARRAY ? CheckUnique(k, e) : true;
      case Kind::kItems: return t == element_type::ARRAY ? CheckItems(k, e, annot) : true;
      case Kind::kContains: return t == element_type::ARRAY ? CheckContains(k, e, annot) : true;
      case Kind::kUnevaluatedItems: return t == element_type::ARRAY ? CheckUnevaluatedItems(k, e, annot) : true;
      case Kind::kRequired: return t == element_type::OBJECT ? CheckRequired(k, e) : true;
      case Kind::kDependentRequired: return t == element_type::OBJECT ? CheckDependentRequired(k, e) : true;
      case Kind::kDependentSchemas: return t == element_type::OBJECT ? CheckDependentSchemas(k, e, annot) : true;
      case Kind::kMembers: return t == element_type::OBJECT ? CheckMembers(k, e, annot) : true;
      case Kind::kPropertyNames: return t == element_type::OBJECT ? CheckPropertyNames(k, e) : true;
      case Kind::kUnevaluatedProperties:
        return t == element_type::OBJECT ? CheckUnevaluatedProperties(k, e, annot) : true;
      case Kind::kAllOf: {
        bool valid = true;
        for (const Node* sub : k.subs) {
          if (!Eval(sub, e, annot)) {
            valid = false;
            if (!Continue()) return false;
          }
        }
        return valid;
      }
      case Kind::kAnyOf: return CheckAnyOf(k, e, annot);
      case Kind::kOneOf: return CheckOneOf(k, e, annot);
      case Kind::kNot: {
        bool matched;
        {
          Silence silence(this);
          matched = Eval(k.sub, e, nullptr);
        }
        if (aborted_) return false;
        return matched ? Fail(k, e) : true;
      }
      case Kind::kIf: return CheckIf(k, e, annot);
      case Kind::kRef:
      case Kind::kDynamicRef: return CheckRef(k, e, annot);
    }
    return true;
  }

  // Reports k's failure at the current path (message built from k and e) and returns false.
  bool Fail(const Keyword& k, const element& e) {
    if (errors_) reporter_.Keyword(k, e, errors_);
    return false;
  }

  bool CheckType(const Keyword& k, const element& e, element_type t) {
    uint8_t bit = 0;
    switch (t) {
      case element_type::NULL_VALUE: bit = kTypeNull; break;
      case element_type::BOOL: bit = kTypeBoolean; break;
      case element_type::OBJECT: bit = kTypeObject; break;
      case element_type::ARRAY: bit = kTypeArray; break;
      case element_type::STRING: bit = kTypeString; break;
      case element_type::INT64:
      case element_type::UINT64: bit = kTypeNumber | kTypeInteger; break;
      case element_type::DOUBLE: {
        double v = e.get_double().value_unsafe();
        bit = kTypeNumber | (std::isfinite(v) && v == std::trunc(v) ? kTypeInteger : 0);
        break;
      }
    }
    if (k.types & bit) return true;
    return Fail(k, e);
  }

  bool CheckEnum(const Keyword& k, const element& e, element_type t) {
    if (k.strings_only) {
      if (t == element_type::STRING) {
        std::string_view s = e.get_string().value_unsafe();
        for (const std::string& n : k.names) {
          if (n.size() == s.size() && std::memcmp(n.data(), s.data(), s.size()) == 0) return true;
        }
      }
      return Fail(k, e);
    }
    if (k.numbers_only) {
      if (t == element_type::INT64 || t == element_type::UINT64 || t == element_type::DOUBLE) {
        double v = NumberValue(e);
        for (double n : k.numbers) {
          if (n == v) return true;
        }
      }
      return Fail(k, e);
    }
    for (const Json& v : k.values) {
      if (ElementEqualsJson(e, v)) return true;
    }
    return Fail(k, e);
  }

  bool CheckNumber(const Keyword& k, const element& e, element_type t) {
    if (t != element_type::INT64 && t != element_type::UINT64 && t != element_type::DOUBLE) return true;
    double v = NumberValue(e);
    bool ok = true;
    switch (k.kind) {
      case Kind::kMinimum: ok = v >= k.number; break;
      case Kind::kMaximum: ok = v <= k.number; break;
      case Kind::kExclusiveMinimum: ok = v > k.number; break;
      case Kind::kExclusiveMaximum: ok = v < k.number; break;
      case Kind::kMultipleOf: {
        if (t == element_type::INT64 && k.number == std::trunc(k.number) && std::fabs(k.number) < 9e15) {
          ok = e.get_int64().value_unsafe() % static_cast<int64_t>(k.number) == 0;
          break;
        }
        double q = v / k.number;
        if (!std::isfinite(q)) {
          ok = std::fmod(v, k.number) == 0;
        } else {
          ok = std::fabs(q - std::round(q)) <= 1e-9 * std::max(1.0, std::fabs(q));
        }
        break;
      }
      default: break;
    }
    return ok ? true : Fail(k, e);
  }

  bool CheckString(const Keyword& k, const element& e) {
    std::string_view s = e.get_string().value_unsafe();
    switch (k.kind) {
      case Kind::kMinLength:
        if (s.size() < k.count || CodePoints(s) < k.count) return Fail(k, e);
        return true;
      case Kind::kMaxLength:
        if (s.size() > k.count && CodePoints(s) > k.count) return Fail(k, e);
        return true;
      case Kind::kPattern: {
        bool limit = false;
        if (k.regex->Search(s, &limit)) return true;
        if (limit && errors_) {
          reporter_.RegexLimit(k, e, errors_);
          return false;
        }
        return Fail(k, e);
      }
      case Kind::kFormat: return CheckFormat(k.format, s) ? true : Fail(k, e);
      default: return true;
    }
  }

  bool CheckCount(const Keyword& k, const element& e, size_t n, bool is_min) {
    if (is_min ? n >= k.count : n <= k.count) return true;
    if (errors_) reporter_.Count(k, e, n, errors_);
    return false;
  }

  bool CheckUnique(const Keyword& k, const element& e);
  bool CheckItems(const Keyword& k, const element& e, Annot* annot);
  bool CheckContains(const Keyword& k, const element& e, Annot* annot);
  bool CheckUnevaluatedItems(const Keyword& k, const element& e, Annot* annot);
  bool CheckRequired(const Keyword& k, const element& e);
  bool CheckDependentRequired(const Keyword& k, const element& e);
  bool CheckDependentSchemas(const Keyword& k, const element& e, Annot* annot);
  bool CheckMembers(const Keyword& k, const element& e, Annot* annot);
  bool CheckPropertyNames(const Keyword& k, const element& e);
  bool CheckUnevaluatedProperties(const Keyword& k, const element& e, Annot* annot);
  bool CheckAnyOf(const Keyword& k, const element& e, Annot* annot);
  bool CheckOneOf(const Keyword& k, const element& e, Annot* annot);
  bool CheckIf(const Keyword& k, const element& e, Annot* annot);
  bool CheckRef(const Keyword& k, const element& e, Annot* annot);
  // Error summaries of each failing branch (first error each), for anyOf/oneOf messages.
  std::vector<std::string> BranchSummaries(const Keyword& k, const element& e);

  const CompiledSchema& schema_;
  const ValidatorOptions& options_;
  bool all_errors_;
  std::vector<ValidationError>* errors_;
  // Per-thread buffers reused across Validate calls (no allocation on the hot path).
  struct ScratchBuffers {
    InstancePath path;
    std::vector<const Resource*> scope;
  };
  static ScratchBuffers& Scratch() {
    thread_local ScratchBuffers buffers;
    return buffers;
  }

  InstancePath& path_;
  Reporter reporter_;
  std::vector<const Resource*>& scope_;
  size_t depth_ = 0;
  uint64_t steps_ = 0;
  bool aborted_ = false;
  ValidationError limit_error_;
};

}  // namespace structure::pipeline::validator_internal
