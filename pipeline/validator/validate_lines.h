// The loop of `structure validate`: JSON Lines read in large blocks, each line parsed in place
// (simdjson, no copy) and validated, one verdict line per instance written through a large
// buffer. The verdict lines are exactly what the validator's result says (VerdictLine).
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include "pipeline/validator/validator.h"

namespace structure::pipeline {

struct ValidateLinesOptions {
  bool all_errors = true;
  size_t block_size = size_t{1} << 20;  // bytes read at a time (a longer line grows the block)
  // A longer line gets a "longer than" verdict and is skipped to its end, so an input without
  // newlines (/dev/zero) costs bounded memory.
  size_t max_line_bytes = size_t{64} << 20;
  // How the verdict names that limit: "a line is longer than N bytes (<line_limit_name>)".
  std::string line_limit_name = "the limit of one line";
};

struct ValidateLinesSummary {
  size_t instances = 0;
  size_t invalid = 0;                     // including lines that are not JSON
  size_t blank_lines = 0;                 // skipped: no instance, no verdict line
  std::vector<size_t> first_blank_lines;  // their line numbers (1-based), at most 5
  std::string read_error;                 // set when the input could not be read to its end
};

// Validates every non-blank line of `in`, writing one line per instance to `out`. A UTF-8 byte
// order mark at the very start is skipped.
ValidateLinesSummary ValidateLines(const pipeline::Validator& validator, std::FILE* in,
                                   std::FILE* out, const ValidateLinesOptions& options = {});

// One instance's verdict line (without the newline): {"valid":true}, or
// {"valid":false,"errors":[{instancePath,schemaPath,keyword,params,message}...]} with a final
// {"keyword":"maxErrors",...,"message":"... and more errors"} when the result was cut off.
void AppendVerdictLine(std::string& out, const pipeline::ValidationResult& result,
                       size_t max_errors);

// Where a line that is not JSON went wrong: its line number (1-based) in the input, the column
// (1-based, in bytes) within the line and the byte offset (0-based) of that place in the input.
struct NotJsonAt {
  size_t line = 0;
  size_t column = 0;
  size_t byte = 0;
};

// The line for text that is not JSON:
// {"valid":false,"error":"line 3, column 9 (input byte offset 57): ...","line":3,"column":9,
// "byte":57}.
void AppendNotJsonLine(std::string& out, const std::string& message, const NotJsonAt& at);

// Where `text` (one line, not JSON) first goes wrong, and why, in the words of our JSON parser
// (simdjson's own message when that parser accepts the text).
std::pair<size_t, std::string> NotJsonReason(std::string_view text, const std::string& fallback);

}  // namespace structure::pipeline
