// The loop of `structure validate`: JSON Lines read in large blocks, each line parsed in place
// (simdjson, no copy) and validated, one verdict line per instance written through a large
// buffer. The verdict lines are exactly what the validator's result says (VerdictLine).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>

#include "pipeline/validator/validator.h"

namespace structure::pipeline {

struct ValidateLinesOptions {
  bool all_errors = true;
  size_t block_size = size_t{1} << 20;  // bytes read at a time (a longer line grows the block)
};

struct ValidateLinesSummary {
  size_t instances = 0;
  size_t invalid = 0;      // including lines that are not JSON
  std::string read_error;  // set when the input could not be read to its end
};

// Validates every non-blank line of `in`, writing one line per instance to `out`.
ValidateLinesSummary ValidateLines(const pipeline::Validator& validator, std::FILE* in,
                                   std::FILE* out, const ValidateLinesOptions& options = {});

// One instance's verdict line (without the newline): {"valid":true}, or
// {"valid":false,"errors":[{instancePath,schemaPath,keyword,params,message}...]} with a final
// {"keyword":"maxErrors",...,"message":"... and more errors"} when the result was cut off.
void AppendVerdictLine(std::string& out, const pipeline::ValidationResult& result,
                       size_t max_errors);

// The line for text that is not JSON: {"valid":false,"error":"..."}.
void AppendNotJsonLine(std::string& out, const std::string& message);

}  // namespace structure::pipeline
