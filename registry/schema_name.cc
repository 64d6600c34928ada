#include "registry/schema_name.h"

#include <string>

#include "base/id.h"

namespace structure::registry {
namespace {

constexpr size_t kMaxNameLength = 64;

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

}  // namespace

Status ValidateSchemaName(std::string_view name) {
  const std::string rule = " (a schema name matches ^[a-z0-9][a-z0-9._-]{0,63}$)";
  if (name.empty()) return InvalidArgument("schema name is empty" + rule);
  if (name.size() > kMaxNameLength) {
    return InvalidArgument("schema name " + ShowId(name) + " is " + std::to_string(name.size()) +
                           " characters long, at most 64 are allowed" + rule);
  }
  if (!IsLowerAlnum(name[0])) {
    return InvalidArgument("schema name " + ShowId(name) + " starts with " +
                           DescribeIdChar(name[0]) + rule);
  }
  for (size_t i = 1; i < name.size(); ++i) {
    char c = name[i];
    if (IsLowerAlnum(c) || c == '.' || c == '_' || c == '-') continue;
    return InvalidArgument("schema name " + ShowId(name) + " has " + DescribeIdChar(c) +
                           " at position " + std::to_string(i) + rule);
  }
  return Status::Ok();
}

Status ValidateScopeId(std::string_view id, std::string_view what) {
  return CheckId(id, std::string(what) + " id");
}

}  // namespace structure::registry
