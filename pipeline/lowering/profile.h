// Capability profiles: what a provider's structured-output mode accepts, as data. The built-in
// profiles carry the defaults the providers document; config can override any field per model.
#pragma once

#include <cstddef>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "structure/status.h"

namespace structure::pipeline {

// How the need branch (`{"_need": string}`) reaches the provider.
enum class NeedKind {
  kEnvelope,    // root object {"result": Target|null, "_need": string|null} (no root union allowed)
  kRootAnyOf,   // root anyOf [Target, {"_need": string}]
  kSecondTool,  // a second tool `need_more_input` next to the answer tool
  kPromptOnly,  // no enforcement: the rule is stated in the prompt only
};

// How a nullable value is written.
enum class NullStyle {
  kTypeArray,        // "type": ["string", "null"]
  kNullableKeyword,  // "nullable": true (OpenAPI 3.0)
};

struct Profile {
  std::string name;
  bool enforces = true;              // false: provider ignores schemas (always fallback)
  std::set<std::string> keywords;    // schema keywords the provider accepts
  std::set<std::string> formats;     // accepted `format` values
  bool require_type = false;         // every schema names a type (or anyOf / $ref / enum)
  bool root_must_be_object = false;  // root is {"type":"object"} (not a union, not a scalar)
  bool all_required = false;         // every property listed in `required`
  bool closed_objects = false;       // every object says additionalProperties: false
  bool additional_properties_schema = false;  // additionalProperties may be a schema (open maps)
  bool refs = true;                           // $ref/$defs accepted (else everything is inlined)
  bool recursion = true;                      // a $ref cycle is accepted
  bool type_arrays = true;                    // "type" may be an array
  NullStyle null_style = NullStyle::kTypeArray;
  bool properties_with_anyof = true;         // properties and anyOf may share one schema object
  bool enum_strings_only = false;            // enum values must be strings
  bool enum_booleans = true;                 // enum and const may hold booleans
  bool pattern_simple_only = false;          // no lookaround, back references, \b, large counts
  size_t pattern_max_count = 1000;           // largest {n,m} count accepted when simple-only
  bool pattern_anchored = false;             // pattern must read ^...$
  bool numeric_bounds_integer_only = false;  // minimum/maximum only on integers
  bool pattern_excludes_length =
      false;                      // pattern/format together with min/maxLength loses the length
  bool schema_in_prompt = false;  // the server enforces the schema by grammar but never shows
                                  // it to the model: it goes into the prompt too
  size_t max_min_items = 0;       // 0 = any; else minItems above this is not accepted
  NeedKind need = NeedKind::kRootAnyOf;
  // Size limits; 0 = unlimited.
  size_t max_properties = 0;          // object properties in the whole schema
  size_t max_depth = 0;               // nesting levels of objects/arrays
  size_t max_enum_values = 0;         // enum values in the whole schema
  size_t max_enum_values_single = 0;  // values in one enum
  size_t large_enum_threshold = 0;    // an enum with more values than this ...
  size_t large_enum_max_chars = 0;    // ... may total at most this many characters
  size_t max_string_budget = 0;       // chars of property names, def names, enum and const values
  size_t max_optional = 0;            // optional properties
  size_t max_unions = 0;              // schemas with anyOf or a type array
  // Grammar size (pipeline/lowering/measure.h): the per-model ceiling behind "compiled grammar
  // is too large" / "too many states", which providers do not publish; learned from their 400s.
  size_t max_grammar_size = 0;
  // A schema past the limits is split into strict parts (split_plan.h), at most this many;
  // one that needs more takes the fallback path.
  size_t max_split_parts = 8;
  // Opt-in: split any schema with more leaf fields than this, even when the provider would
  // take it whole (answer quality on very large schemas); 0 = off.
  size_t max_fields_per_call = 0;
  // Prompt caching (docs/providers.md): off sends no cache key or cache mark; cache_min_tokens
  // is the smallest prefix worth marking for Anthropic (0 = the model's documented minimum).
  bool prompt_cache = true;
  size_t cache_min_tokens = 0;
  // Gemini provider batches (batchGenerateContent): the generationConfig field the schema goes
  // in. "responseJsonSchema" (the live form) or "responseSchema" (the legacy OpenAPI dialect,
  // lowered with the gemini-legacy rules); docs/providers.md says why the default is the first.
  std::string batch_schema_field = "responseJsonSchema";
};

// The names of the built-in profiles, in a stable order.
const std::vector<std::string>& BuiltinProfileNames();

// A built-in profile by name: "openai-strict", "anthropic-strict", "gemini", "gemini-legacy",
// "ollama", "vllm", "llamacpp", "json". kNotFound for any other name.
Result<Profile> FindProfile(std::string_view name);

// Applies per-model overrides (a JSON object, e.g. a TOML table converted to JSON) whose keys are
// the field names above: booleans and numbers replace, "keywords"/"formats" replace the set,
// "add_keywords"/"remove_keywords"/"add_formats"/"remove_formats" edit it, "need" is one of
// "envelope", "root-anyof", "second-tool", "prompt-only", "null_style" "type-array" or
// "nullable", "batch_schema_field" "responseJsonSchema" or "responseSchema". kInvalidArgument
// naming the key for an unknown key or a value of the wrong type.
Result<Profile> ApplyProfileOverrides(Profile base, const Json& overrides);

// The profile a provider batch lowers with: `live` itself, or gemini-legacy when `live` sends
// batch schemas as responseSchema.
Result<Profile> BatchProfile(const Profile& live);

// The profile as the JSON object ApplyProfileOverrides reads (for `structure config` and docs).
Json ProfileToJson(const Profile& profile);

}  // namespace structure::pipeline
