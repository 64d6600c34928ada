#include "pipeline/loop/reask_reason.h"

#include <string>

#include "pipeline/validator/validator.h"

namespace structure::pipeline {
namespace {

struct KeywordReason {
  std::string_view keyword;
  ReaskReason reason;
};

constexpr KeywordReason kKeywords[] = {
    {"type", ReaskReason::kType},
    {"required", ReaskReason::kRequired},
    {"dependentRequired", ReaskReason::kRequired},
    {"dependencies", ReaskReason::kRequired},
    {"additionalProperties", ReaskReason::kAdditionalProperties},
    {"unevaluatedProperties", ReaskReason::kAdditionalProperties},
    {"propertyNames", ReaskReason::kAdditionalProperties},
    {"enum", ReaskReason::kEnumConst},
    {"const", ReaskReason::kEnumConst},
    {"pattern", ReaskReason::kPattern},
    {"format", ReaskReason::kFormat},
    {"minimum", ReaskReason::kBounds},
    {"maximum", ReaskReason::kBounds},
    {"exclusiveMinimum", ReaskReason::kBounds},
    {"exclusiveMaximum", ReaskReason::kBounds},
    {"multipleOf", ReaskReason::kBounds},
    {"minProperties", ReaskReason::kBounds},
    {"maxProperties", ReaskReason::kBounds},
    {"minLength", ReaskReason::kLength},
    {"maxLength", ReaskReason::kLength},
    {"items", ReaskReason::kItems},
    {"prefixItems", ReaskReason::kItems},
    {"additionalItems", ReaskReason::kItems},
    {"unevaluatedItems", ReaskReason::kItems},
    {"minItems", ReaskReason::kItems},
    {"maxItems", ReaskReason::kItems},
    {"uniqueItems", ReaskReason::kItems},
    {"contains", ReaskReason::kItems},
    {"minContains", ReaskReason::kItems},
    {"maxContains", ReaskReason::kItems},
};

constexpr std::string_view kNames[kReaskReasonCount] = {
    "type",       "required", "additionalProperties",
    "enum/const", "pattern",  "format",
    "bounds",     "length",   "items",
    "semantic",   "parse",    "need",
    "other"};

ReaskReason ForKeyword(std::string_view keyword) {
  for (const auto& k : kKeywords) {
    if (k.keyword == keyword) return k.reason;
  }
  return ReaskReason::kOther;
}

}  // namespace

std::string_view ReaskReasonName(ReaskReason reason) {
  size_t i = static_cast<size_t>(reason);
  return i < kReaskReasonCount ? kNames[i] : "other";
}

ReaskReason ReaskReasonOf(const ValidationError& error) {
  if (error.keyword != "false") return ForKeyword(error.keyword);
  // A false schema rejects whatever reaches it: the keyword it sits under says what that was
  // ("/additionalProperties", "/items", "/properties/x", "/prefixItems/0").
  const std::string& path = error.schema_path;
  size_t slash = path.find_last_of('/');
  std::string_view last = slash == std::string::npos ? std::string_view(path)
                                                     : std::string_view(path).substr(slash + 1);
  if (!last.empty() && last.find_first_not_of("0123456789") == std::string_view::npos &&
      slash != 0 && slash != std::string::npos) {
    size_t prev = path.find_last_of('/', slash - 1);
    last = std::string_view(path).substr(prev == std::string::npos ? 0 : prev + 1,
                                         slash - (prev == std::string::npos ? 0 : prev + 1));
  }
  ReaskReason r = ForKeyword(last);
  return r == ReaskReason::kItems ? r : ReaskReason::kAdditionalProperties;
}

ReaskReasons ReaskReasonsOf(const std::vector<ValidationError>& errors) {
  ReaskReasons out = 0;
  for (const ValidationError& e : errors) out |= ReasonBit(ReaskReasonOf(e));
  return out;
}

void CountReask(ReaskCounts& counts, ReaskReasons reasons) {
  for (size_t i = 0; i < kReaskReasonCount; ++i) {
    if (reasons & (ReaskReasons{1} << i)) ++counts[i];
  }
}

}  // namespace structure::pipeline
