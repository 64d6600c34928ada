#include "pipeline/lowering/profile.h"

#include <map>
#include <utility>

namespace structure::pipeline {
namespace {

struct BoolField {
  const char* name;
  bool Profile::*field;
};
struct SizeField {
  const char* name;
  size_t Profile::*field;
};

const BoolField kBoolFields[] = {
    {"enforces", &Profile::enforces},
    {"require_type", &Profile::require_type},
    {"root_must_be_object", &Profile::root_must_be_object},
    {"all_required", &Profile::all_required},
    {"closed_objects", &Profile::closed_objects},
    {"additional_properties_schema", &Profile::additional_properties_schema},
    {"refs", &Profile::refs},
    {"recursion", &Profile::recursion},
    {"type_arrays", &Profile::type_arrays},
    {"properties_with_anyof", &Profile::properties_with_anyof},
    {"enum_strings_only", &Profile::enum_strings_only},
    {"enum_booleans", &Profile::enum_booleans},
    {"pattern_simple_only", &Profile::pattern_simple_only},
    {"pattern_anchored", &Profile::pattern_anchored},
    {"numeric_bounds_integer_only", &Profile::numeric_bounds_integer_only},
    {"pattern_excludes_length", &Profile::pattern_excludes_length},
    {"schema_in_prompt", &Profile::schema_in_prompt},
    {"prompt_cache", &Profile::prompt_cache},
};

const SizeField kSizeFields[] = {
    {"pattern_max_count", &Profile::pattern_max_count},
    {"max_min_items", &Profile::max_min_items},
    {"max_properties", &Profile::max_properties},
    {"max_depth", &Profile::max_depth},
    {"max_enum_values", &Profile::max_enum_values},
    {"max_enum_values_single", &Profile::max_enum_values_single},
    {"large_enum_threshold", &Profile::large_enum_threshold},
    {"large_enum_max_chars", &Profile::large_enum_max_chars},
    {"max_string_budget", &Profile::max_string_budget},
    {"max_optional", &Profile::max_optional},
    {"max_unions", &Profile::max_unions},
    {"max_grammar_size", &Profile::max_grammar_size},
    {"max_split_parts", &Profile::max_split_parts},
    {"max_fields_per_call", &Profile::max_fields_per_call},
    {"cache_min_tokens", &Profile::cache_min_tokens},
};

const std::pair<const char*, NeedKind> kNeedNames[] = {
    {"envelope", NeedKind::kEnvelope},
    {"root-anyof", NeedKind::kRootAnyOf},
    {"second-tool", NeedKind::kSecondTool},
    {"prompt-only", NeedKind::kPromptOnly},
};

Status ReadStringSet(const std::string& key, const Json& value, std::set<std::string>& out) {
  if (!value.is_array())
    return InvalidArgument("profile override '" + key + "' must be an array of strings");
  std::set<std::string> items;
  for (const Json& v : value.as_array()) {
    if (!v.is_string())
      return InvalidArgument("profile override '" + key + "' must be an array of strings");
    items.insert(v.as_string());
  }
  out = std::move(items);
  return Status::Ok();
}

Json SetToJson(const std::set<std::string>& s) {
  Json a = Json::MakeArray();
  for (const std::string& x : s) a.push_back(Json(x));
  return a;
}

}  // namespace

Result<Profile> ApplyProfileOverrides(Profile base, const Json& overrides) {
  if (!overrides.is_object()) return InvalidArgument("profile overrides must be an object");
  for (const auto& [key, value] : overrides.as_object()) {
    bool done = false;
    for (const BoolField& f : kBoolFields) {
      if (key != f.name) continue;
      if (!value.is_bool())
        return InvalidArgument("profile override '" + key + "' must be a boolean");
      base.*f.field = value.as_bool();
      done = true;
    }
    for (const SizeField& f : kSizeFields) {
      if (key != f.name) continue;
      if (!value.is_number() || !value.is_integral() || value.as_double() < 0)
        return InvalidArgument("profile override '" + key + "' must be a non-negative integer");
      base.*f.field = static_cast<size_t>(value.as_int());
      done = true;
    }
    if (done) continue;
    if (key == "name") {
      if (!value.is_string()) return InvalidArgument("profile override 'name' must be a string");
      base.name = value.as_string();
    } else if (key == "keywords") {
      STRUCTURE_RETURN_IF_ERROR(ReadStringSet(key, value, base.keywords));
    } else if (key == "formats") {
      STRUCTURE_RETURN_IF_ERROR(ReadStringSet(key, value, base.formats));
    } else if (key == "add_keywords" || key == "remove_keywords" || key == "add_formats" ||
               key == "remove_formats") {
      std::set<std::string> items;
      STRUCTURE_RETURN_IF_ERROR(ReadStringSet(key, value, items));
      std::set<std::string>& target =
          key.find("keywords") != std::string::npos ? base.keywords : base.formats;
      for (const std::string& x : items) {
        if (key.rfind("add_", 0) == 0) {
          target.insert(x);
        } else {
          target.erase(x);
        }
      }
    } else if (key == "need") {
      bool found = false;
      for (const auto& [n, kind] : kNeedNames)
        if (value.is_string() && value.as_string() == n) base.need = kind, found = true;
      if (!found)
        return InvalidArgument(
            "profile override 'need' must be envelope, root-anyof, second-tool or prompt-only");
    } else if (key == "null_style") {
      if (value.is_string() && value.as_string() == "type-array") {
        base.null_style = NullStyle::kTypeArray;
      } else if (value.is_string() && value.as_string() == "nullable") {
        base.null_style = NullStyle::kNullableKeyword;
      } else {
        return InvalidArgument("profile override 'null_style' must be type-array or nullable");
      }
    } else if (key == "batch_schema_field") {
      if (!value.is_string() ||
          (value.as_string() != "responseJsonSchema" && value.as_string() != "responseSchema")) {
        return InvalidArgument(
            "profile override 'batch_schema_field' must be responseJsonSchema or responseSchema");
      }
      base.batch_schema_field = value.as_string();
    } else {
      return InvalidArgument("unknown profile override '" + key + "'");
    }
  }
  return base;
}

Result<Profile> BatchProfile(const Profile& live) {
  if (live.batch_schema_field != "responseSchema") return live;
  return FindProfile("gemini-legacy");
}

Json ProfileToJson(const Profile& p) {
  Json out = Json::MakeObject();
  out.set("name", Json(p.name));
  for (const BoolField& f : kBoolFields) out.set(f.name, Json(p.*f.field));
  for (const SizeField& f : kSizeFields) out.set(f.name, Json(static_cast<uint64_t>(p.*f.field)));
  out.set("keywords", SetToJson(p.keywords));
  out.set("formats", SetToJson(p.formats));
  for (const auto& [n, kind] : kNeedNames)
    if (kind == p.need) out.set("need", Json(n));
  out.set("null_style", Json(p.null_style == NullStyle::kTypeArray ? "type-array" : "nullable"));
  out.set("batch_schema_field", Json(p.batch_schema_field));
  return out;
}

}  // namespace structure::pipeline
