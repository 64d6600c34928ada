#include "pipeline/validator/validator.h"

#include "pipeline/validator/big_integers.h"
#include "pipeline/validator/eval.h"
#include "pipeline/validator/schema.h"

namespace structure::pipeline {
namespace {

simdjson::dom::parser& ThreadParser() {
  thread_local simdjson::dom::parser parser;
  return parser;
}

Status ParseError(simdjson::error_code code) {
  if (code == simdjson::DEPTH_ERROR) {
    return InvalidArgument("invalid JSON: nesting deeper than the parser's limit of " +
                           std::to_string(simdjson::DEFAULT_MAX_DEPTH) + " levels");
  }
  return InvalidArgument(std::string("invalid JSON: ") + simdjson::error_message(code));
}

}  // namespace

Validator::Validator(std::unique_ptr<validator_internal::CompiledSchema> compiled)
    : compiled_(std::move(compiled)) {}

Validator::~Validator() = default;

ValidationResult Validator::Validate(const simdjson::dom::element& instance,
                                     bool all_errors) const {
  return validator_internal::Evaluate(*compiled_, instance, all_errors);
}

ValidationResult Validator::Validate(const Json& instance, bool all_errors) const {
  std::string text = ToJson(instance);
  simdjson::dom::element element;
  simdjson::error_code code = ThreadParser().parse(text).get(element);
  if (code == simdjson::NUMBER_ERROR || code == simdjson::NUMBER_OUT_OF_RANGE ||
      (code == simdjson::SUCCESS && validator_internal::MayHoldBigNegativeInteger(text))) {
    auto widened = ValidateWidened(text, all_errors);
    if (widened.ok()) return *std::move(widened);
  }
  if (code != simdjson::SUCCESS) {
    ValidationResult result;
    result.valid = false;
    ValidationError error;
    error.keyword = "maxDepth";
    error.message = "(root): " + ParseError(code).message();
    result.errors.push_back(std::move(error));
    return result;
  }
  return Validate(element, all_errors);
}

Result<ValidationResult> Validator::ValidateText(std::string_view json_text,
                                                 bool all_errors) const {
  simdjson::dom::element element;
  simdjson::error_code code = ThreadParser().parse(json_text.data(), json_text.size()).get(element);
  if (code == simdjson::NUMBER_ERROR || code == simdjson::NUMBER_OUT_OF_RANGE ||
      (code == simdjson::SUCCESS && validator_internal::MayHoldBigNegativeInteger(json_text))) {
    return ValidateWidened(json_text, all_errors);
  }
  if (code != simdjson::SUCCESS) return ParseError(code);
  return Validate(element, all_errors);
}

Result<ValidationResult> Validator::ValidateWidened(std::string_view json_text,
                                                    bool all_errors) const {
  validator_internal::BigIntegerTable table;
  std::string wide = validator_internal::WidenBigIntegers(json_text, &table);
  simdjson::dom::element element;
  simdjson::error_code code =
      wide.empty() ? ThreadParser().parse(json_text.data(), json_text.size()).get(element)
                   : ThreadParser().parse(wide).get(element);
  if (code != simdjson::SUCCESS) return ParseError(code);
  validator_internal::BigIntegerScope scope(&table);
  return Validate(element, all_errors);
}

Result<ValidationResult> Validator::ValidatePaddedText(std::string_view json_text,
                                                       bool all_errors) const {
  simdjson::dom::element element;
  simdjson::error_code code =
      ThreadParser()
          .parse(json_text.data(), json_text.size(), /*realloc_if_needed=*/false)
          .get(element);
  if (code == simdjson::NUMBER_ERROR || code == simdjson::NUMBER_OUT_OF_RANGE ||
      (code == simdjson::SUCCESS && validator_internal::MayHoldBigNegativeInteger(json_text))) {
    return ValidateWidened(json_text, all_errors);
  }
  if (code != simdjson::SUCCESS) return ParseError(code);
  return Validate(element, all_errors);
}

const std::vector<std::string>& Validator::warnings() const { return compiled_->warnings; }

size_t Validator::max_errors() const { return compiled_->options.max_errors; }

Json ElementToJson(const simdjson::dom::element& e) {
  using simdjson::dom::element_type;
  switch (e.type()) {
    case element_type::NULL_VALUE:
      return Json();
    case element_type::BOOL:
      return Json(e.get_bool().value_unsafe());
    case element_type::INT64:
      return Json(e.get_int64().value_unsafe());
    case element_type::UINT64:
      return Json(e.get_uint64().value_unsafe());
    case element_type::DOUBLE:
      return Json(e.get_double().value_unsafe());
    case element_type::STRING:
      return Json(e.get_string().value_unsafe());
    case element_type::ARRAY: {
      Json::Array items;
      simdjson::dom::array array = e.get_array().value_unsafe();
      for (simdjson::dom::element item : array) items.push_back(ElementToJson(item));
      return Json(std::move(items));
    }
    case element_type::OBJECT: {
      Json::Object members;
      simdjson::dom::object object = e.get_object().value_unsafe();
      for (auto field : object) {
        members.emplace_back(std::string(field.key), ElementToJson(field.value));
      }
      return Json(std::move(members));
    }
  }
  return Json();
}

}  // namespace structure::pipeline
