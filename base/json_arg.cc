#include "base/json_arg.h"

#include <sys/stat.h>

#include "base/read_file.h"

namespace structure {

Result<JsonArg> ReadJsonArg(const std::string& value, std::string_view flag, size_t max_bytes,
                            std::string_view limit_name) {
  size_t first = value.find_first_not_of(" \t\r\n");
  struct stat st;
  if (first != std::string::npos && value[first] == '{' && ::lstat(value.c_str(), &st) != 0) {
    if (value.size() > max_bytes) {
      return InvalidArgument("the JSON given is larger than " + std::to_string(max_bytes) +
                             " bytes (" + std::string(limit_name) + ")");
    }
    return JsonArg{value, std::string(flag), true};
  }
  auto text = ReadFile(value, max_bytes, limit_name);
  if (!text.ok()) return text.status();
  return JsonArg{std::move(*text), value, false};
}

}  // namespace structure
