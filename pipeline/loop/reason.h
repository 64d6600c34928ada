// Reason text: what the model is told when its answer falls short, in one fixed form —
// one line per violation, JSON pointer first, with the offending value.
#pragma once

#include <string>
#include <vector>

#include "pipeline/validator/validator.h"

namespace structure::pipeline {

// The re-ask message for validation errors, e.g.
//   The previous output did not conform to the schema:
//   - /priority: value must be <= 5 (was 7)
//
//   Please correct these and try again. Do not change fields that were valid.
// Errors keep the validator's stable order; at most max_lines lines are listed (then
// "- … and N more"). Lines are the validator's messages, so the exact text is tested there.
std::string BuildReason(const std::vector<ValidationError>& errors, size_t max_lines = 20);

// The same for violations that are plain lines (semantic checks, parse failures).
std::string BuildReasonFromLines(const std::vector<std::string>& lines, size_t max_lines = 20);

// The re-ask message when a semantic check rejected a schema-valid answer, in the check's own
// words:
//   The previous output is valid against the schema but the check rejected it:
//   - /reports/2: report r9 belongs to another group
//
//   Please correct these and try again. Do not change fields that were valid.
std::string BuildCheckReason(const std::vector<std::string>& lines, size_t max_lines = 20);

// The validator messages as plain strings (for the result's `errors`).
std::vector<std::string> ErrorMessages(const std::vector<ValidationError>& errors);

}  // namespace structure::pipeline
