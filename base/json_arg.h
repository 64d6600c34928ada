// A JSON document named on the command line (--schema, `schema lower SCHEMA`): a file, or the
// JSON text itself, as a user who has the schema at hand types it.
#pragma once

#include <string>
#include <string_view>

#include "structure/status.h"

namespace structure {

struct JsonArg {
  std::string text;
  std::string source;  // the file's path, or the flag that held the text (for messages)
  bool is_inline = false;
};

// `value` that starts with '{' (after blanks) and names no file is the text itself, bounded by
// `max_bytes` like a file ("the JSON given is larger than N bytes (<limit_name>)"); anything
// else is read as ReadFile reads a file (base/read_file.h), with its messages.
Result<JsonArg> ReadJsonArg(const std::string& value, std::string_view flag, size_t max_bytes,
                            std::string_view limit_name);

}  // namespace structure
