#include "pipeline/validator/messages.h"

#include "base/json_pointer.h"
#include "pipeline/validator/uri.h"
#include "pipeline/validator/values.h"

namespace structure::pipeline::validator_internal {
namespace {

constexpr const char* kTypeNames[] = {"null",   "boolean", "object", "array",
                                      "number", "string",  "integer"};

// " (was 7)": the offending value as it ends a message.
std::string Was(const std::string& actual) { return " (was " + actual + ")"; }

// A keyword's number as the schema wrote it: a big integer keeps its digits.
bool IsBigInteger(const Json& v) {
  return v.is_number() && !v.is_int() && v.is_integral() &&
         !(v.as_double() > -9e15 && v.as_double() < 9e15);
}

// Integral limits read as 5, not 5.0.
Json NumberJson(double v) {
  if (v > -9e15 && v < 9e15 && v == static_cast<double>(static_cast<int64_t>(v))) {
    return Json(static_cast<int64_t>(v));
  }
  return Json(v);
}

constexpr size_t kMaxExpectedValues = 50;  // params.expected of huge enums is cut

}  // namespace

std::string Quoted(std::string_view s) {
  std::string out;
  AppendJsonString(out, s);
  return out;
}

std::string InstancePath::Pointer() const {
  std::string out;
  for (size_t i = 0; i < size_; ++i) {
    const Segment& s = segments_[i];
    if (s.is_index) {
      out += '/';
      out += std::to_string(s.n);
    } else {
      AppendPointerToken(out, std::string_view(s.key, s.n));
    }
  }
  return out;
}

ValidationError Reporter::Make(std::string keyword, std::string schema_path, Json params,
                               const std::string& text,
                               const simdjson::dom::element* actual) const {
  return Build(std::move(keyword), std::move(schema_path), std::move(params), text,
               actual != nullptr ? CompactTruncated(*actual) : std::string());
}

ValidationError Reporter::Build(std::string keyword, std::string schema_path, Json params,
                                const std::string& text, std::string actual) const {
  ValidationError error;
  error.instance_path = path_->Pointer();
  error.schema_path = std::move(schema_path);
  error.keyword = std::move(keyword);
  error.params = std::move(params);
  error.actual = std::move(actual);
  error.message =
      (error.instance_path.empty() ? std::string("(root)") : error.instance_path) + ": " + text;
  return error;
}

void Reporter::Keyword(const validator_internal::Keyword& k, const simdjson::dom::element& e,
                       std::vector<ValidationError>* sink) const {
  std::string actual = CompactTruncated(e);
  Json params = Json::MakeObject();
  std::string text;
  switch (k.kind) {
    case Kind::kType: {
      Json names = Json::MakeArray();
      std::string list;
      for (int bit = 0; bit < 7; ++bit) {
        if (!(k.types & (1 << bit))) continue;
        if (!list.empty()) list += " or ";
        list += kTypeNames[bit];
        names.push_back(kTypeNames[bit]);
      }
      params.set("type", names.size() == 1 ? names.as_array()[0] : names);
      text = "value must be " + list + Was(actual);
      break;
    }
    case Kind::kConst:
      params.set("allowedValue", k.value);
      text = "value must be equal to " + CompactTruncated(k.value) + Was(actual);
      break;
    case Kind::kEnum: {
      Json expected = Json::MakeArray();
      for (size_t i = 0; i < k.values.size() && i < kMaxExpectedValues; ++i)
        expected.push_back(k.values[i]);
      params.set("expected", expected);
      if (k.values.size() > kMaxExpectedValues)
        params.set("expectedCount", static_cast<int64_t>(k.values.size()));
      text = "value must be one of " + CompactTruncated(expected, 120) + Was(actual);
      break;
    }
    case Kind::kMinimum:
    case Kind::kMaximum:
    case Kind::kExclusiveMinimum:
    case Kind::kExclusiveMaximum: {
      const char* cmp = k.kind == Kind::kMinimum            ? ">="
                        : k.kind == Kind::kMaximum          ? "<="
                        : k.kind == Kind::kExclusiveMinimum ? ">"
                                                            : "<";
      params.set("comparison", cmp);
      params.set("limit", IsBigInteger(k.value) ? k.value : NumberJson(k.number));
      text = std::string("value must be ") + cmp + " " +
             (IsBigInteger(k.value) ? CompactTruncated(k.value) : FormatNumber(k.number)) +
             Was(actual);
      break;
    }
    case Kind::kMultipleOf:
      params.set("multipleOf", IsBigInteger(k.value) ? k.value : NumberJson(k.number));
      text = "value must be a multiple of " +
             (IsBigInteger(k.value) ? CompactTruncated(k.value) : FormatNumber(k.number)) +
             Was(actual);
      break;
    case Kind::kMinLength:
    case Kind::kMaxLength: {
      params.set("limit", static_cast<int64_t>(k.count));
      size_t n = CodePoints(e.get_string().value_unsafe());
      text = std::string("string must have ") +
             (k.kind == Kind::kMinLength ? "at least " : "at most ") + std::to_string(k.count) +
             " characters (was " + std::to_string(n) + ")";
      break;
    }
    case Kind::kPattern:
      params.set("pattern", k.regex->source());
      text = "value must match pattern " + Quoted(k.regex->source()) + Was(actual);
      break;
    case Kind::kFormat:
      params.set("format", k.names.front());
      text = "value must be a valid " + k.names.front() + Was(actual);
      break;
    case Kind::kNot:
      text = "value must not match the \"not\" schema" + Was(actual);
      break;
    default:
      text = "value is not valid against \"" + k.name + "\"" + Was(actual);
      break;
  }
  sink->push_back(Build(k.name, k.path, std::move(params), text, std::move(actual)));
}

void Reporter::Count(const validator_internal::Keyword& k, const simdjson::dom::element& e,
                     size_t n, std::vector<ValidationError>* sink) const {
  bool is_min = k.kind == Kind::kMinItems || k.kind == Kind::kMinProperties;
  bool items = k.kind == Kind::kMinItems || k.kind == Kind::kMaxItems;
  Json params = Json::MakeObject();
  params.set("limit", static_cast<int64_t>(k.count));
  std::string text = std::string(items ? "array" : "object") + " must have " +
                     (is_min ? "at least " : "at most ") + std::to_string(k.count) +
                     (items ? " items" : " properties") + " (has " + std::to_string(n) + ")";
  Add(sink, k.name, k.path, std::move(params), text, &e);
}

void Reporter::FalseSchema(const Node& node, const simdjson::dom::element& e,
                           std::vector<ValidationError>* sink) const {
  std::string actual = CompactTruncated(e);
  std::string text = "no value is allowed here (schema is false)" + Was(actual);
  sink->push_back(Build("false", node.path, Json::MakeObject(), text, std::move(actual)));
}

void Reporter::RegexLimit(const validator_internal::Keyword& k, const simdjson::dom::element& e,
                          std::vector<ValidationError>* sink) const {
  Json params = Json::MakeObject();
  params.set("pattern", k.regex->source());
  params.set("stepLimitExceeded", true);
  std::string actual = CompactTruncated(e);
  std::string text = "pattern " + Quoted(k.regex->source()) +
                     " could not be decided within the regex step limit" + Was(actual);
  sink->push_back(Build(k.name, k.path, std::move(params), text, std::move(actual)));
}

}  // namespace structure::pipeline::validator_internal
