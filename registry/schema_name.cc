#include "registry/schema_name.h"

#include <string>

namespace structure::registry {
namespace {

constexpr size_t kMaxNameLength = 64;
constexpr size_t kMaxScopeIdLength = 128;

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool IsAlnum(char c) { return IsLowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

// Printable form of an offending character for error messages (control bytes as \xNN).
std::string Describe(char c) {
  unsigned char u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + c + "'";
  static const char kHex[] = "0123456789abcdef";
  return std::string("byte \\x") + kHex[u >> 4] + kHex[u & 15];
}

std::string Shown(std::string_view s) {
  constexpr size_t kShow = 80;
  std::string out = "\"";
  for (char c : s.substr(0, kShow)) {
    unsigned char u = static_cast<unsigned char>(c);
    out += (u >= 0x20 && u < 0x7f) ? c : '?';
  }
  if (s.size() > kShow) out += "...";
  return out + "\"";
}

}  // namespace

Status ValidateSchemaName(std::string_view name) {
  const std::string rule = " (a schema name matches ^[a-z0-9][a-z0-9._-]{0,63}$)";
  if (name.empty()) return InvalidArgument("schema name is empty" + rule);
  if (name.size() > kMaxNameLength) {
    return InvalidArgument("schema name " + Shown(name) + " is " + std::to_string(name.size()) +
                           " characters long, at most 64 are allowed" + rule);
  }
  if (!IsLowerAlnum(name[0])) {
    return InvalidArgument("schema name " + Shown(name) + " starts with " + Describe(name[0]) +
                           rule);
  }
  for (size_t i = 1; i < name.size(); ++i) {
    char c = name[i];
    if (IsLowerAlnum(c) || c == '.' || c == '_' || c == '-') continue;
    return InvalidArgument("schema name " + Shown(name) + " has " + Describe(c) + " at position " +
                           std::to_string(i) + rule);
  }
  return Status::Ok();
}

Status ValidateScopeId(std::string_view id, std::string_view what) {
  const std::string label(what);
  const std::string rule =
      " (an id is 1..128 characters of [A-Za-z0-9._@-], starting with a letter, "
      "digit, '_' or '@')";
  if (id.empty()) return InvalidArgument(label + " id is empty" + rule);
  if (id.size() > kMaxScopeIdLength) {
    return InvalidArgument(label + " id " + Shown(id) + " is too long" + rule);
  }
  if (id[0] == '.' || id[0] == '-') {
    return InvalidArgument(label + " id " + Shown(id) + " starts with " + Describe(id[0]) + rule);
  }
  for (size_t i = 0; i < id.size(); ++i) {
    char c = id[i];
    if (IsAlnum(c) || c == '.' || c == '_' || c == '@' || c == '-') continue;
    return InvalidArgument(label + " id " + Shown(id) + " has " + Describe(c) + " at position " +
                           std::to_string(i) + rule);
  }
  return Status::Ok();
}

}  // namespace structure::registry
