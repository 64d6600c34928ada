#include "pipeline/generate/json_type.h"

namespace structure::pipeline {

std::string SchemaTypeOf(const Json& v) {
  switch (v.type()) {
    case Json::Type::kNull:
      return "null";
    case Json::Type::kBool:
      return "boolean";
    case Json::Type::kInt:
      return "integer";
    case Json::Type::kDouble:
      return v.is_integral() ? "integer" : "number";
    case Json::Type::kString:
      return "string";
    case Json::Type::kArray:
      return "array";
    case Json::Type::kObject:
      return "object";
  }
  return "null";
}

bool HasSchemaType(const Json& v, std::string_view t) {
  if (t == "null") return v.is_null();
  if (t == "boolean") return v.is_bool();
  if (t == "string") return v.is_string();
  if (t == "number") return v.is_number();
  if (t == "integer") return v.is_number() && v.is_integral();
  if (t == "array") return v.is_array();
  if (t == "object") return v.is_object();
  return false;
}

}  // namespace structure::pipeline
