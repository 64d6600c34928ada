#include "base/id.h"

namespace structure {

bool IsIdChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '_' || c == '.' || c == ':' || c == '@';
}

std::string IdRule() {
  return "an id is 1.." + std::to_string(kMaxIdLength) +
         " letters, digits and - _ . : @, and not \".\" or \"..\" alone";
}

std::string DescribeIdChar(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  static const char kHex[] = "0123456789abcdef";
  return std::string("byte \\x") + kHex[u >> 4] + kHex[u & 15];
}

std::string ShowId(std::string_view id) {
  constexpr size_t kShow = 80;
  std::string out = "\"";
  for (char c : id.substr(0, kShow)) {
    unsigned char u = static_cast<unsigned char>(c);
    out += (u >= 0x20 && u < 0x7f) ? c : '?';
  }
  if (id.size() > kShow) out += "...";
  return out + "\"";
}

std::string IdProblem(std::string_view id) {
  const std::string rule = " (" + IdRule() + ")";
  if (id.empty()) return "the id is empty" + rule;
  if (id.size() > kMaxIdLength) {
    return ShowId(id) + " is " + std::to_string(id.size()) + " characters long" + rule;
  }
  if (id == "." || id == "..") return ShowId(id) + " names a folder" + rule;
  for (size_t i = 0; i < id.size(); ++i) {
    if (IsIdChar(id[i])) continue;
    return ShowId(id) + " has " + DescribeIdChar(id[i]) + " at position " + std::to_string(i) +
           rule;
  }
  return "";
}

Status CheckId(std::string_view id, std::string_view what) {
  std::string problem = IdProblem(id);
  if (problem.empty()) return Status::Ok();
  return InvalidArgument(std::string(what) + ": " + problem);
}

}  // namespace structure
