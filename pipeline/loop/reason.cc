#include "pipeline/loop/reason.h"

namespace structure::pipeline {

namespace {

std::string Lines(std::string out, const std::vector<std::string>& lines, size_t max_lines) {
  size_t shown = 0;
  for (const auto& line : lines) {
    if (shown == max_lines) break;
    out += "- " + line + "\n";
    ++shown;
  }
  if (lines.size() > shown) {
    out += "- ... and " + std::to_string(lines.size() - shown) + " more\n";
  }
  out += "\nPlease correct these and try again. Do not change fields that were valid.";
  return out;
}

}  // namespace

std::string BuildReasonFromLines(const std::vector<std::string>& lines, size_t max_lines) {
  return Lines("The previous output did not conform to the schema:\n", lines, max_lines);
}

std::string BuildCheckReason(const std::vector<std::string>& lines, size_t max_lines) {
  return Lines("The previous output is valid against the schema but the check rejected it:\n",
               lines, max_lines);
}

std::vector<std::string> ErrorMessages(const std::vector<ValidationError>& errors) {
  std::vector<std::string> out;
  out.reserve(errors.size());
  for (const auto& e : errors) out.push_back(e.message);
  return out;
}

std::string BuildReason(const std::vector<ValidationError>& errors, size_t max_lines) {
  return BuildReasonFromLines(ErrorMessages(errors), max_lines);
}

}  // namespace structure::pipeline
