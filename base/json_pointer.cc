#include "base/json_pointer.h"

namespace structure {

std::string EscapePointerToken(std::string_view token) {
  std::string out;
  AppendPointerToken(out, token);
  return out.substr(1);
}

void AppendPointerToken(std::string& pointer, std::string_view token) {
  pointer += '/';
  for (char c : token) {
    if (c == '~') {
      pointer += "~0";
    } else if (c == '/') {
      pointer += "~1";
    } else {
      pointer += c;
    }
  }
}

std::optional<std::string> UnescapePointerToken(std::string_view escaped) {
  std::string token;
  token.reserve(escaped.size());
  for (size_t i = 0; i < escaped.size(); ++i) {
    if (escaped[i] != '~') {
      token += escaped[i];
      continue;
    }
    if (i + 1 >= escaped.size()) return std::nullopt;
    char next = escaped[++i];
    if (next == '0') {
      token += '~';
    } else if (next == '1') {
      token += '/';
    } else {
      return std::nullopt;
    }
  }
  return token;
}

std::optional<std::vector<std::string>> SplitPointer(std::string_view pointer) {
  std::vector<std::string> tokens;
  if (pointer.empty()) return tokens;
  if (pointer[0] != '/') return std::nullopt;
  size_t pos = 1;
  while (true) {
    size_t slash = pointer.find('/', pos);
    size_t end = slash == std::string_view::npos ? pointer.size() : slash;
    auto token = UnescapePointerToken(pointer.substr(pos, end - pos));
    if (!token) return std::nullopt;
    tokens.push_back(std::move(*token));
    if (slash == std::string_view::npos) return tokens;
    pos = slash + 1;
  }
}

}  // namespace structure
