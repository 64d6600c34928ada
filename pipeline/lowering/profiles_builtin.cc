// The built-in capability profiles, written as the same JSON that config overrides use. Numbers
// and lists come from the providers' own documentation (autumn 2026); they are defaults, not
// truths.
#include <map>

#include "pipeline/lowering/profile.h"

namespace structure::pipeline {
namespace {

// Each entry is applied on top of a default Profile{}. anthropic-strict allows 16 split parts,
// not 8: a part holds at most 24 optional and 16 union-typed properties (40 optional fields),
// so a schema of a few hundred optional fields needs 10 to 16 parts where OpenAI takes it whole
// (docs/lowering.md, "Cost and limits").
const std::pair<const char*, const char*> kBuiltins[] = {
    {"openai-strict", R"({
      "keywords": ["type", "properties", "required", "additionalProperties", "items", "anyOf",
                   "enum", "$ref", "$defs", "description", "title", "pattern", "format",
                   "multipleOf", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
                   "minItems", "maxItems"],
      "formats": ["date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6",
                  "uuid"],
      "require_type": true, "root_must_be_object": true, "all_required": true,
      "closed_objects": true, "additional_properties_schema": false, "refs": true,
      "recursion": true, "type_arrays": true, "need": "envelope",
      "max_properties": 5000, "max_depth": 10, "max_enum_values": 1000,
      "large_enum_threshold": 250, "large_enum_max_chars": 15000, "max_string_budget": 120000
    })"},
    {"anthropic-strict", R"({
      "keywords": ["type", "properties", "required", "additionalProperties", "items", "anyOf",
                   "enum", "const", "$ref", "$defs", "description", "title", "default",
                   "pattern", "format", "minItems"],
      "formats": ["date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4",
                  "ipv6", "uuid"],
      "require_type": true, "root_must_be_object": true, "all_required": false,
      "closed_objects": true, "additional_properties_schema": false, "refs": true,
      "recursion": false, "type_arrays": true, "pattern_simple_only": true,
      "pattern_max_count": 64, "max_min_items": 1, "need": "second-tool",
      "max_enum_values_single": 150, "max_optional": 24, "max_unions": 16,
      "max_split_parts": 16
    })"},
    {"gemini", R"({
      "keywords": ["$defs", "$ref", "type", "format", "title", "description", "enum", "items",
                   "prefixItems", "minItems", "maxItems", "properties", "additionalProperties",
                   "required", "propertyOrdering", "minimum", "maximum", "anyOf"],
      "formats": ["date-time", "date", "time"],
      "additional_properties_schema": true, "refs": true, "recursion": true,
      "type_arrays": true, "enum_booleans": false, "need": "envelope",
      "max_enum_values_single": 100
    })"},
    {"gemini-legacy", R"({
      "keywords": ["type", "format", "title", "description", "nullable", "enum", "maxItems",
                   "minItems", "properties", "required", "minProperties", "maxProperties",
                   "minLength", "maxLength", "pattern", "anyOf", "propertyOrdering", "items",
                   "minimum", "maximum"],
      "formats": ["date-time", "enum"],
      "require_type": true, "additional_properties_schema": false, "refs": false,
      "recursion": false, "type_arrays": false, "null_style": "nullable",
      "enum_strings_only": true, "need": "envelope", "max_enum_values_single": 100
    })"},
    {"ollama", R"({
      "keywords": ["type", "properties", "required", "additionalProperties", "items", "anyOf",
                   "enum", "const", "$ref", "$defs", "description", "title", "pattern",
                   "format", "minLength", "maxLength", "minItems", "maxItems", "minimum",
                   "maximum", "exclusiveMinimum", "exclusiveMaximum"],
      "formats": ["date", "time", "date-time", "uuid"],
      "additional_properties_schema": true, "refs": false, "recursion": false,
      "type_arrays": true, "properties_with_anyof": false, "pattern_anchored": true,
      "numeric_bounds_integer_only": true, "need": "root-anyof", "schema_in_prompt": true
    })"},
    {"vllm", R"({
      "keywords": ["type", "properties", "required", "additionalProperties", "items",
                   "prefixItems", "anyOf", "enum", "const", "$ref", "$defs", "description",
                   "title", "pattern", "format", "minLength", "maxLength", "minItems",
                   "maxItems", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"],
      "formats": ["email", "date", "time", "date-time", "duration", "ipv4", "ipv6", "hostname",
                  "uuid", "uri", "uri-reference", "uri-template", "json-pointer",
                  "relative-json-pointer"],
      "additional_properties_schema": true, "refs": true, "recursion": true,
      "type_arrays": true, "pattern_excludes_length": true, "need": "root-anyof",
      "schema_in_prompt": true
    })"},
    // llama.cpp's json-schema-to-grammar (llama-server, and llamafile which embeds it): local
    // $refs with recursion, anchored patterns, length and item bounds, integer ranges only.
    {"llamacpp", R"({
      "keywords": ["type", "properties", "required", "additionalProperties", "items",
                   "prefixItems", "anyOf", "enum", "const", "$ref", "$defs",
                   "description", "title", "pattern", "format", "minLength", "maxLength",
                   "minItems", "maxItems", "minimum", "maximum", "exclusiveMinimum",
                   "exclusiveMaximum"],
      "formats": ["date", "time", "date-time", "uuid"],
      "additional_properties_schema": true, "refs": true, "recursion": true,
      "type_arrays": true, "pattern_anchored": true, "numeric_bounds_integer_only": true,
      "need": "root-anyof", "schema_in_prompt": true
    })"},
    {"json", R"({"enforces": false, "need": "prompt-only"})"},
};

}  // namespace

const std::vector<std::string>& BuiltinProfileNames() {
  static const std::vector<std::string> kNames = [] {
    std::vector<std::string> names;
    for (const auto& [name, text] : kBuiltins) names.push_back(name);
    return names;
  }();
  return kNames;
}

Result<Profile> FindProfile(std::string_view name) {
  for (const auto& [n, text] : kBuiltins) {
    if (name != n) continue;
    Result<Json> data = ParseJson(text, {.max_depth = 16, .source = std::string("profile ") + n});
    if (!data.ok()) return Internal(data.status().message());
    Profile base;
    base.name = n;
    return ApplyProfileOverrides(std::move(base), *data);
  }
  return NotFound("unknown provider profile '" + std::string(name) +
                  "' (known: openai-strict, anthropic-strict, gemini, gemini-legacy, ollama, vllm, "
                  "llamacpp, json)");
}

}  // namespace structure::pipeline
