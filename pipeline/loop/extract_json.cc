#include "pipeline/loop/extract_json.h"

#include <vector>

namespace structure::pipeline {

namespace {

// Returns the end (one past) of the balanced {...} or [...] starting at `start`, tracking
// strings; npos when the span never closes (truncated output).
size_t BalancedEnd(std::string_view text, size_t start) {
  std::vector<char> stack;
  bool in_string = false;
  for (size_t i = start; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == '{' || c == '[') {
      stack.push_back(c == '{' ? '}' : ']');
    } else if (c == '}' || c == ']') {
      if (stack.empty() || stack.back() != c) return std::string_view::npos;
      stack.pop_back();
      if (stack.empty()) return i + 1;
    }
  }
  return std::string_view::npos;
}

// Removes commas that directly precede '}' or ']' (ignoring white space), outside strings.
std::string DropTrailingCommas(std::string_view text, bool& changed) {
  std::string out;
  out.reserve(text.size());
  bool in_string = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      out += c;
      if (c == '\\' && i + 1 < text.size()) {
        out += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') in_string = true;
    if (c == ',') {
      size_t j = i + 1;
      while (j < text.size() &&
             (text[j] == ' ' || text[j] == '\n' || text[j] == '\r' || text[j] == '\t')) {
        ++j;
      }
      if (j < text.size() && (text[j] == '}' || text[j] == ']')) {
        changed = true;
        continue;
      }
    }
    out += c;
  }
  return out;
}

Result<Extracted> ParseCandidate(std::string_view candidate, bool had_prose) {
  if (auto v = ParseStrict(candidate); v.ok()) return Extracted{std::move(*v), false, had_prose};
  bool changed = false;
  std::string repaired = DropTrailingCommas(candidate, changed);
  if (changed) {
    if (auto v = ParseStrict(repaired); v.ok()) return Extracted{std::move(*v), true, had_prose};
  }
  return ParseStrict(candidate).status();
}

std::string_view Trim(std::string_view s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

// The body of the first ``` fence (any info string), or npos when there is none.
bool FirstFence(std::string_view text, std::string_view& body) {
  size_t open = text.find("```");
  if (open == std::string_view::npos) return false;
  size_t line_end = text.find('\n', open);
  if (line_end == std::string_view::npos) return false;
  size_t close = text.find("```", line_end + 1);
  body = text.substr(line_end + 1, close == std::string_view::npos ? std::string_view::npos
                                                                   : close - line_end - 1);
  return true;
}

}  // namespace

Result<Json> ParseStrict(std::string_view text) {
  ParseOptions o;
  o.source = "answer";
  return ParseJson(text, o);
}

Result<Extracted> ExtractJson(std::string_view text) {
  std::string_view trimmed = Trim(text);
  if (trimmed.empty()) return InvalidArgument("the answer is empty");
  if (auto r = ParseCandidate(trimmed, false); r.ok()) return r;

  std::string_view fenced;
  if (FirstFence(text, fenced)) {
    if (auto r = ParseCandidate(Trim(fenced), true); r.ok()) return r;
  }

  Status first_error;
  bool truncated = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '{' && text[i] != '[') continue;
    size_t end = BalancedEnd(text, i);
    if (end == std::string_view::npos) {
      truncated = truncated || text[i] == '{';
      continue;
    }
    auto r = ParseCandidate(text.substr(i, end - i), true);
    if (r.ok()) return r;
    if (first_error.ok()) first_error = r.status();
    i = end - 1;
  }
  if (!first_error.ok())
    return InvalidArgument("the JSON in the answer is malformed: " + first_error.message());
  if (truncated) return InvalidArgument("the JSON in the answer is truncated (an unclosed '{')");
  return InvalidArgument("no JSON object found in the answer");
}

}  // namespace structure::pipeline
