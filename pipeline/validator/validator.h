// Validator: our JSON Schema validator (Draft 2020-12, plus draft-07/06/04 by $schema).
// A schema is compiled once (CompileSchema) into an immutable Validator that any number of
// threads may share through shared_ptr<const Validator>. Validation runs on a simdjson DOM
// element (the fast path) or on a JSON text, and returns structured leaf errors.
//
// Safety: instance nesting and $ref chains are bounded by ValidatorOptions::max_depth, total
// work by max_eval_steps; patterns run on RE2 (linear time) after an ECMA-262 -> RE2
// translation; patterns RE2 cannot express or compile (look-around, back references, nested
// counts past its limit, very large classes) run on a bounded backtracking engine with an
// explicit step limit (docs/validator.md). Nothing here throws.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "base/json.h"
#include "base/status.h"

namespace structure::pipeline {

struct ValidationError {
  std::string instance_path;  // JSON pointer, "" for the root
  std::string schema_path;    // JSON pointer into the schema, e.g. "/properties/priority/maximum";
                              // keywords in other documents read "<uri>#/pointer"
  std::string keyword;        // "maximum"
  Json params;                // {"limit":5} / {"expected":["a","b"]} / {"missingProperty":"x"} ...
  std::string actual;         // the offending value as compact JSON, truncated (~80 chars)
  std::string message;        // "/priority: value must be <= 5 (was 7)"; the root reads "(root)"
};

struct ValidationResult {
  bool valid = true;
  std::vector<ValidationError> errors;
  bool more_errors = false;  // errors stopped at ValidatorOptions::max_errors; there are more
};

// Which meaning a schema without "$schema" gets.
enum class Draft { k2020_12, k2019_09, kDraft7, kDraft6, kDraft4 };

struct ValidatorOptions {
  bool assert_format = true;  // format as assertion (false: annotation only)
  size_t max_depth = 1000;    // instance nesting and $ref chain bound -> clear error
  // Extra documents by absolute URI (test-suite remotes, shared definitions). The draft
  // 2020-12 and draft-07 meta-schemas are built in.
  std::map<std::string, Json> resources;
  Draft default_draft = Draft::k2020_12;
  // Bound on schema evaluations per Validate call (guards exponential applicator trees).
  uint64_t max_eval_steps = 50'000'000;
  // At most this many errors per instance (all_errors mode), so one hostile instance cannot
  // take gigabytes; past it the result says more_errors. 0 = no limit.
  size_t max_errors = 100;
  // Step limit of the backtracking engine used for patterns RE2 cannot run; a pattern that
  // exceeds it counts as not matching and the error says so.
  uint64_t max_regex_steps = 1'000'000;
  // When true, patterns that need the backtracking engine make CompileSchema fail instead.
  bool reject_backtracking_patterns = false;
  // Fail closed: keyword values of the wrong type ("type": 5, "minimum": "x"), patterns no
  // engine can run and $refs that cannot be resolved always make CompileSchema fail, since
  // skipping them would accept values the schema means to refuse. Keywords that are well
  // formed but have no effect (a 2020-12 `items` given as an array, which that draft ignores)
  // are a warning (Validator::warnings()); strict makes them errors too.
  bool strict = false;
  // The old behaviour for references: an unresolvable $ref is skipped with a warning (so it
  // accepts anything) instead of failing CompileSchema.
  bool allow_unresolved_refs = false;
};

namespace validator_internal {
struct CompiledSchema;
}

// Immutable after CompileSchema; all methods are const and thread-safe.
class Validator {
 public:
  explicit Validator(std::unique_ptr<validator_internal::CompiledSchema> compiled);
  ~Validator();
  Validator(const Validator&) = delete;
  Validator& operator=(const Validator&) = delete;

  // Validates a parsed instance. With all_errors=false, stops at the first error (hot path).
  ValidationResult Validate(const simdjson::dom::element& instance, bool all_errors = true) const;
  // Convenience: converts through a JSON text (slower than the element overload).
  ValidationResult Validate(const Json& instance, bool all_errors = true) const;
  // Parses json_text (simdjson) and validates it. Bad JSON -> kInvalidArgument.
  Result<ValidationResult> ValidateText(std::string_view json_text, bool all_errors = true) const;
  // The same without copying: json_text.data() must have simdjson::SIMDJSON_PADDING readable
  // bytes after json_text.size() (any content), e.g. the next lines of a large input block.
  Result<ValidationResult> ValidatePaddedText(std::string_view json_text,
                                              bool all_errors = true) const;

  // Notes from compilation, e.g. patterns that run on the backtracking engine.
  const std::vector<std::string>& warnings() const;
  // ValidatorOptions::max_errors it was compiled with.
  size_t max_errors() const;

 private:
  Result<ValidationResult> ValidateWidened(std::string_view json_text, bool all_errors) const;

  std::unique_ptr<validator_internal::CompiledSchema> compiled_;
};

// Compiles schema (a boolean or an object). kInvalidArgument with a message that names the
// schema location for: keyword values of the wrong type, unresolvable $ref (unless
// allow_unresolved_refs), invalid patterns, a $ref cycle that never consumes instance, schema
// nesting deeper than max_depth. Every path that takes a user's schema (run, batch, HTTP, MCP,
// `schema lower|check`, `validate`) checks it here first.
Result<std::shared_ptr<const Validator>> CompileSchema(const Json& schema,
                                                       const ValidatorOptions& options = {});

// Converts a simdjson element to Json (deep copy; bounded by the parser's own depth limit).
Json ElementToJson(const simdjson::dom::element& element);

}  // namespace structure::pipeline
