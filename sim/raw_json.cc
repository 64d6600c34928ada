#include "sim/raw_json.h"

namespace structure::sim {
namespace {

size_t SkipSpace(std::string_view s, size_t i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\n' || s[i] == '\r' || s[i] == '\t')) ++i;
  return i;
}

// The end (one past) of the value starting at i, or npos when it is cut off.
size_t ValueEnd(std::string_view s, size_t i) {
  if (i >= s.size()) return std::string_view::npos;
  if (s[i] == '"') {
    for (size_t k = i + 1; k < s.size(); ++k) {
      if (s[k] == '\\') {
        ++k;
      } else if (s[k] == '"') {
        return k + 1;
      }
    }
    return std::string_view::npos;
  }
  if (s[i] == '{' || s[i] == '[') {
    int depth = 0;
    for (size_t k = i; k < s.size(); ++k) {
      char c = s[k];
      if (c == '"') {
        k = ValueEnd(s, k);
        if (k == std::string_view::npos) return k;
        --k;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if ((c == '}' || c == ']') && --depth == 0) {
        return k + 1;
      }
    }
    return std::string_view::npos;
  }
  size_t k = i;
  while (k < s.size() && s[k] != ',' && s[k] != '}' && s[k] != ']' && s[k] != ' ' && s[k] != '\n' &&
         s[k] != '\r' && s[k] != '\t') {
    ++k;
  }
  return k;
}

}  // namespace

std::optional<std::string_view> RawMember(std::string_view s, std::string_view key) {
  size_t i = SkipSpace(s, 0);
  if (i >= s.size() || s[i] != '{') return std::nullopt;
  i = SkipSpace(s, i + 1);
  while (i < s.size() && s[i] == '"') {
    size_t key_end = ValueEnd(s, i);
    if (key_end == std::string_view::npos) return std::nullopt;
    std::string_view k = s.substr(i + 1, key_end - i - 2);
    i = SkipSpace(s, key_end);
    if (i >= s.size() || s[i] != ':') return std::nullopt;
    i = SkipSpace(s, i + 1);
    size_t end = ValueEnd(s, i);
    if (end == std::string_view::npos) return std::nullopt;
    if (k == key) return s.substr(i, end - i);
    i = SkipSpace(s, end);
    if (i < s.size() && s[i] == ',') i = SkipSpace(s, i + 1);
  }
  return std::nullopt;
}

std::vector<std::string_view> RawElements(std::string_view s) {
  std::vector<std::string_view> out;
  size_t i = SkipSpace(s, 0);
  if (i >= s.size() || s[i] != '[') return out;
  i = SkipSpace(s, i + 1);
  while (i < s.size() && s[i] != ']') {
    size_t end = ValueEnd(s, i);
    if (end == std::string_view::npos) return {};
    out.push_back(s.substr(i, end - i));
    i = SkipSpace(s, end);
    if (i < s.size() && s[i] == ',') i = SkipSpace(s, i + 1);
  }
  return out;
}

}  // namespace structure::sim
