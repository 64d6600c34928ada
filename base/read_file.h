// Reading a file a user named, whole and bounded: the one way every layer reads its inputs
// (prompts, schemas, configuration, scenarios, a job's own state).
#pragma once

#include <string>
#include <string_view>

#include "structure/status.h"

namespace structure {

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
