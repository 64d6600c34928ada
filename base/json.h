// JSON helpers inside the engine, beside the public Json value (structure/json.h): text size
// without writing, splicing text into a serialization, string literals, reading files.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "structure/json.h"
#include "structure/status.h"

namespace structure {

// ToJson(value).size(), counted without building the text.
size_t JsonTextSize(const Json& value);

// Compact text `text` written in place of the node `at` of a tree being serialized: a large
// value that is already text (a shared schema sent with every call) is not copied into the
// tree and written again. `at` must point into the tree passed to ToJsonSpliced.
struct JsonSplice {
  const Json* at;
  std::string_view text;
};
// ToJson(value) (compact), with each spliced node replaced by its text.
std::string ToJsonSpliced(const Json& value, std::span<const JsonSplice> splices);

// Appends a JSON string literal (with quotes and escapes) for s to out.
void AppendJsonString(std::string& out, std::string_view s);

// The most ReadFile reads unless told otherwise.
inline constexpr size_t kMaxFileBytes = size_t{64} << 20;
// The inputs read whole, bounded alike in every layer that reads them.
inline constexpr size_t kMaxPromptBytes = size_t{1} << 20;  // a prompt (a request's limit too)
inline constexpr size_t kMaxSchemaBytes = size_t{1} << 20;  // a schema document (likewise)
inline constexpr size_t kMaxConfigBytes = size_t{4} << 20;  // a TOML configuration file

// Reads a whole file, but never more than `max_bytes` of it: a longer one (or an endless one,
// /dev/zero, `yes |`) is kInvalidArgument "<path>: larger than N bytes (<limit_name>): stopped
// reading there". kNotFound (with the OS reason) when it cannot be opened, kInvalidArgument for
// a directory, kUnavailable when a read fails.
Result<std::string> ReadFile(const std::string& path, size_t max_bytes = kMaxFileBytes,
                             std::string_view limit_name = "the limit for a file read whole");

}  // namespace structure
