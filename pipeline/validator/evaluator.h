// Internal: the evaluator class (one per Validate call). The hot path (node plans, scalar
// keywords) is inline here; validator_eval.cc drives a run, validator_eval_object.cc,
// validator_eval_array.cc and validator_eval_applicator.cc hold the structural keywords.
#pragma once

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <simdjson.h>

#include "pipeline/validator/big_integers.h"
#include "pipeline/validator/formats.h"
#include "pipeline/validator/messages.h"
#include "pipeline/validator/schema.h"
#include "pipeline/validator/validator.h"
#include "pipeline/validator/values.h"

// The hot path is forced inline in optimised builds. AddressSanitizer builds leave inlining to
// the compiler: their stack slots carry redzones, and the deepest in-place $ref recursion
// (max_depth levels through EvalKeywords) must still fit the stack.
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
#define STRUCTURE_VALIDATOR_HOT [[gnu::always_inline]]
#else
#define STRUCTURE_VALIDATOR_HOT
#endif

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
      : schema_(schema),
        options_(schema.options),
        all_errors_(all_errors),
        errors_(errors),
        path_(Scratch().path),
        reporter_(&path_),
        scope_(Scratch().scope) {
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

  // All-errors mode goes on until one error past max_errors (so "more" is known for sure).
  bool Continue() const {
    return errors_ != nullptr && all_errors_ && !aborted_ &&
           (options_.max_errors == 0 || errors_->size() <= options_.max_errors);
  }

  // Ends the run with one limit error; every later Eval takes the slow path and fails.
  [[gnu::noinline]] void Abort(const char* keyword, const std::string& text, const element& at) {
    step_limit_ = 0;
    if (aborted_) return;
    aborted_ = true;
    limit_error_ = reporter_.Make(keyword, "", Json::MakeObject(), text, &at);
  }

  [[gnu::noinline]] bool DepthExceeded(const element& parent) {
    Abort("maxDepth",
          "nesting exceeds the validator's limit of " + std::to_string(options_.max_depth) +
              " levels",
          parent);
    return false;
  }

  // An instance member or item, one level deeper. EvalChildInline is for the hottest call sites
  // (properties, items), where scalars (most members) then run their plan without a call.
  [[gnu::noinline]] bool EvalChild(const Node* node, const element& child, const element& parent) {
    return EvalChildInline(node, child, parent);
  }
  STRUCTURE_VALIDATOR_HOT bool EvalChildInline(const Node* node, const element& child,
                                               const element& parent) {
    if (depth_ >= max_depth_) [[unlikely]]
      return DepthExceeded(parent);
    ++depth_;
    bool ok;
    InstanceClass c = ClassOf(child);
    if (++steps_ > step_limit_ || !node->direct || c == kClassObject || c == kClassArray) {
      ok = node->direct && steps_ <= step_limit_
               ? EvalKeywords(node, child, c, nullptr) && !aborted_
               : EvalSlow(node, child, nullptr);
    } else {
      ok = EvalScalar(node, child, c);
    }
    --depth_;
    return ok;
  }

  // A node's plan for a scalar instance, for members and items: the value is read once and
  // the scalar keywords run inline; the rest (type, const, applicators) through EvalOp.
  STRUCTURE_VALIDATOR_HOT bool EvalScalar(const Node* node, const element& e, InstanceClass c) {
    const Op* it = node->plan + node->plan_begin[c];
    const Op* end = node->plan + node->plan_begin[c + 1];
    if (it == end) return true;
    double number = 0;
    std::string_view text;
    if (c == kClassString) {
      text = e.get_string().value_unsafe();
    } else if (c == kClassInt64 || c == kClassUint64 || c == kClassDouble) {
      number = Number(e, c);
    }
    bool valid = true;
    for (; it != end; ++it) {
      if (!(IsScalarOp(it->kind) ? ScalarOp(*it, e, c, number, text) : EvalOp(*it, e, c))) {
        valid = false;
        if (!Continue()) break;
      }
    }
    return valid;
  }

  static bool IsScalarOp(Kind kind) { return kind >= Kind::kEnum && kind <= Kind::kFormat; }

  // enum and the numeric and string keywords, on the value of a number (number) or a string
  // (text); objects and arrays only reach enum.
  STRUCTURE_VALIDATOR_HOT bool ScalarOp(const Op& op, const element& e, InstanceClass c,
                                        double number, std::string_view text) {
    switch (op.kind) {
      case Kind::kEnum:
        return CheckEnum(op, e, c, number, text);
      // Rounding to double is monotone: only equal doubles need the exact comparison.
      case Kind::kMinimum:
        return number > op.number || (number == op.number && Exact(op, e) >= 0) ||
               Fail(*op.keyword, e);
      case Kind::kMaximum:
        return number < op.number || (number == op.number && Exact(op, e) <= 0) ||
               Fail(*op.keyword, e);
      case Kind::kExclusiveMinimum:
        return number > op.number || (number == op.number && Exact(op, e) > 0) ||
               Fail(*op.keyword, e);
      case Kind::kExclusiveMaximum:
        return number < op.number || (number == op.number && Exact(op, e) < 0) ||
               Fail(*op.keyword, e);
      case Kind::kMultipleOf:
        return IsMultiple(e, c, op.number) || Fail(*op.keyword, e);
      case Kind::kMinLength:
        return HasMinLength(text, op.count) || Fail(*op.keyword, e);
      case Kind::kMaxLength:
        return HasMaxLength(text, op.count) || Fail(*op.keyword, e);
      case Kind::kPattern:
        return CheckPattern(op, text, e);
      case Kind::kFormat:
        return CheckFormat(op.format, text) || Fail(*op.keyword, e);
      default:
        return true;
    }
  }

  // A code point takes 1-4 bytes: count them only when the byte length cannot decide.
  static bool HasMinLength(std::string_view s, uint64_t n) {
    return s.size() / 4 >= n || (s.size() >= n && CodePoints(s) >= n);
  }
  static bool HasMaxLength(std::string_view s, uint64_t n) {
    return s.size() <= n || CodePoints(s) <= n;
  }

  [[gnu::noinline]] bool EvalOp(const Op& op, const element& e, InstanceClass c) {
    return EvalKeyword(op, e, c, nullptr) && !aborted_;
  }

  // Hot path: a node without `false`, own annotations or dynamic scope runs its plan directly.
  STRUCTURE_VALIDATOR_HOT bool Eval(const Node* node, const element& e, Annot* annot) {
    if (++steps_ > step_limit_ || !node->direct) [[unlikely]]
      return EvalSlow(node, e, annot);
    return EvalKeywords(node, e, ClassOf(e), annot) && !aborted_;
  }

  [[gnu::noinline]] bool EvalSlow(const Node* node, const element& e, Annot* annot) {
    if (aborted_) return false;
    if (steps_ > options_.max_eval_steps) {
      Abort("maxSteps",
            "validation exceeded the limit of " + std::to_string(options_.max_eval_steps) +
                " schema evaluations",
            e);
      return false;
    }
    if (node->is_false) {
      if (errors_) reporter_.FalseSchema(*node, e, errors_);
      return false;
    }
    bool pushed = false;
    if (schema_.dynamic_scope && (scope_.empty() || scope_.back() != node->resource)) {
      scope_.push_back(node->resource);
      pushed = true;
    }
    InstanceClass c = ClassOf(e);
    bool valid = node->has_unevaluated ? EvalOwnAnnotations(node, e, c, annot)
                                       : EvalKeywords(node, e, c, annot);
    if (pushed) scope_.pop_back();
    return valid && !aborted_;
  }

  // element_type is the tape's type character; a table avoids a hard-to-predict jump.
  static InstanceClass ClassOf(const element& e) {
    static constexpr auto kClassOfType = [] {
      std::array<InstanceClass, 128> table{};
      table['n'] = kClassNull;
      table['t'] = kClassBool;
      table['{'] = kClassObject;
      table['['] = kClassArray;
      table['l'] = kClassInt64;
      table['u'] = kClassUint64;
      table['d'] = kClassDouble;
      table['"'] = kClassString;
      return table;
    }();
    return kClassOfType[static_cast<uint8_t>(e.type()) & 127];
  }

  // Runs the node's plan for class c (only the keywords that can act on such an instance).
  bool EvalKeywords(const Node* node, const element& e, InstanceClass c, Annot* annot) {
    const Op* it = node->plan + node->plan_begin[c];
    const Op* end = node->plan + node->plan_begin[c + 1];
    bool valid = true;
    for (; it != end; ++it) {
      if (!EvalKeyword(*it, e, c, annot)) {
        valid = false;
        if (!Continue()) break;
      }
    }
    return valid;
  }

  // unevaluated* see only this schema's own annotations; merged upward when valid.
  bool EvalOwnAnnotations(const Node* node, const element& e, InstanceClass c, Annot* annot) {
    Annot local;
    bool valid = EvalKeywords(node, e, c, &local);
    if (annot != nullptr && valid) annot->Merge(local);
    return valid;
  }

  // The plan guarantees that k applies to class c (e.g. only strings reach kPattern).
  STRUCTURE_VALIDATOR_HOT bool EvalKeyword(const Op& op, const element& e, InstanceClass c,
                                           Annot* annot) {
    if (IsScalarOp(op.kind)) {
      bool number = c == kClassInt64 || c == kClassUint64 || c == kClassDouble;
      return ScalarOp(op, e, c, number ? Number(e, c) : 0,
                      c == kClassString ? e.get_string().value_unsafe() : std::string_view());
    }
    const Keyword& k = *op.keyword;
    switch (op.kind) {
      case Kind::kType:
        return CheckType(k, e, c);
      case Kind::kConst:
        if (ElementEqualsJson(e, k.value)) return true;
        return Fail(k, e);
      case Kind::kMinItems:
      case Kind::kMaxItems:
        return CheckCount(k, e, e.get_array().value_unsafe().size(), k.kind == Kind::kMinItems);
      case Kind::kMinProperties:
      case Kind::kMaxProperties:
        return CheckCount(k, e, e.get_object().value_unsafe().size(),
                          k.kind == Kind::kMinProperties);
      case Kind::kUniqueItems:
        return CheckUnique(k, e);
      case Kind::kItems:
        return CheckItems(k, e, annot);
      case Kind::kContains:
        return CheckContains(k, e, annot);
      case Kind::kUnevaluatedItems:
        return CheckUnevaluatedItems(k, e, annot);
      case Kind::kRequired:
        return CheckRequired(k, e);
      case Kind::kDependentRequired:
        return CheckDependentRequired(k, e);
      case Kind::kDependentSchemas:
        return CheckDependentSchemas(k, e, annot);
      case Kind::kMembers:
        return CheckMembers(k, e, annot);
      case Kind::kPropertyNames:
        return CheckPropertyNames(k, e);
      case Kind::kUnevaluatedProperties:
        return CheckUnevaluatedProperties(k, e, annot);
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
      case Kind::kAnyOf:
        return CheckAnyOf(k, e, annot);
      case Kind::kOneOf:
        return CheckOneOf(k, e, annot);
      case Kind::kNot: {
        bool matched;
        {
          Silence silence(this);
          matched = Eval(k.sub, e, nullptr);
        }
        if (aborted_) return false;
        return matched ? Fail(k, e) : true;
      }
      case Kind::kIf:
        return CheckIf(k, e, annot);
      case Kind::kRef:
      case Kind::kDynamicRef:
        return CheckRef(k, e, annot);
      default:
        break;  // scalar keywords: ScalarOp
    }
    return true;
  }

  // Reports k's failure at the current path (message built from k and e) and returns false.
  [[gnu::noinline]] static int Exact(const Op& op, const element& e) {
    return CompareIntegersExactly(e, op.keyword->value);
  }

  [[gnu::noinline]] bool Fail(const Keyword& k, const element& e) {
    if (errors_) reporter_.Keyword(k, e, errors_);
    return false;
  }

  // Only reached when k.types may reject class c (an integral double passes "integer").
  bool CheckType(const Keyword& k, const element& e, InstanceClass c) {
    if (c == kClassDouble && (k.types & kTypeInteger)) {
      double v = e.get_double().value_unsafe();
      // A double here was written with a fraction or an exponent, unless it stands for an
      // integer beyond 64 bits (big_integers.h).
      if (k.integer_has_no_fraction) {
        if (ExactBigInteger(v) != nullptr) return true;
      } else if (std::isfinite(v) && v == std::trunc(v)) {
        return true;
      }
    }
    return Fail(k, e);
  }

  [[gnu::always_inline]] static double Number(const element& e, InstanceClass c) {
    if (c == kClassInt64) return static_cast<double>(e.get_int64().value_unsafe());
    if (c == kClassUint64) return static_cast<double>(e.get_uint64().value_unsafe());
    double v = e.get_double().value_unsafe();
    if (std::fabs(v) >= 9.2e18) [[unlikely]]
      return NearestDouble(v);  // maybe a big integer's stand-in
    return v;
  }

  // enum; number / text are the instance's value when it is a number / string.
  [[gnu::noinline]] bool CheckEnum(const Op& op, const element& e, InstanceClass c, double number,
                                   std::string_view text) {
    const Keyword& k = *op.keyword;
    if (op.strings_only) {
      if (c == kClassString) {
        for (const std::string& n : k.names) {
          if (BytesEqual(n, text)) return true;
        }
      }
      return Fail(k, e);
    }
    if (op.numbers_only) {
      if (c == kClassInt64 || c == kClassUint64 || c == kClassDouble) {
        for (double n : k.numbers) {
          if (n == number) return true;
        }
      }
      return Fail(k, e);
    }
    for (const Json& v : k.values) {
      if (ElementEqualsJson(e, v)) return true;
    }
    return Fail(k, e);
  }

  static bool IsMultiple(const element& e, InstanceClass c, double divisor) {
    if (c == kClassInt64 && divisor == std::trunc(divisor) && std::fabs(divisor) < 9e15) {
      return e.get_int64().value_unsafe() % static_cast<int64_t>(divisor) == 0;
    }
    // As the reference validators decide it (python-jsonschema: int(q) == q; Ajv: q is
    // integral): the quotient in doubles must be a whole number. 0.3 is therefore not a
    // multiple of 0.1 (0.3 / 0.1 is 2.9999999999999996), as there; no tolerance is added.
    double v = Number(e, c);
    double q = v / divisor;
    if (!std::isfinite(q)) return std::fmod(v, divisor) == 0;
    return q == std::trunc(q);
  }

  bool CheckPattern(const Op& op, std::string_view text, const element& e) {
    bool limit = false;
    if (op.regex->Search(text, &limit)) return true;
    if (limit && errors_) {
      reporter_.RegexLimit(*op.keyword, e, errors_);
      return false;
    }
    return Fail(*op.keyword, e);
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
  // A member under patternProperties / additionalProperties, after `properties` gave ok and
  // *matched (set here when one applies); returns the member's verdict.
  bool EvalOtherMember(const Keyword& k, const simdjson::dom::key_value_pair& field,
                       const element& e, bool ok, bool* matched);
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
  uint64_t step_limit_ = options_.max_eval_steps;  // 0 once aborted
  const size_t max_depth_ = options_.max_depth;
  bool aborted_ = false;
  ValidationError limit_error_;
};

}  // namespace structure::pipeline::validator_internal
