// Reading a file a user named, whole and bounded: the one way every layer reads its inputs
// (prompts, schemas, configuration, scenarios, batch input, a job's own state). A FIFO is read
// as it is written, but one that no process writes is waited for only so long, never forever.
#pragma once

#include <chrono>
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

// How long a FIFO is waited for when no process has it open at the other end: a writer for a
// FIFO read, a reader for one written (base/output_file.h).
inline constexpr std::chrono::milliseconds kFifoWait = std::chrono::seconds(10);

// An input opened for reading: read `head` first (at most one byte, taken while looking for a
// FIFO's writer), then `fd` (blocking, close-on-exec; the caller closes it).
struct OpenedInput {
  int fd = -1;
  std::string head;
};

// Opens `path` for reading. A directory or socket is kInvalidArgument "<path> is a directory,
// not a file"; what cannot be opened is kNotFound "cannot open <path>: <OS reason>". A FIFO is
// opened without blocking and read once a process writes it (or has written it and closed it);
// one that no process writes for `fifo_wait` is kUnavailable "<path> is a FIFO that no process
// writes: start its writer first". This process's own standard input (`/dev/stdin`, a pipe) is
// read as it is.
Result<OpenedInput> OpenForReading(const std::string& path,
                                   std::chrono::milliseconds fifo_wait = kFifoWait);

// Reads a whole file, but never more than `max_bytes` of it: a longer one (or an endless one,
// /dev/zero, `yes |`) is kInvalidArgument "<path>: larger than N bytes (<limit_name>): stopped
// reading there". Opened as OpenForReading says; kUnavailable when a read fails.
Result<std::string> ReadFile(const std::string& path, size_t max_bytes = kMaxFileBytes,
                             std::string_view limit_name = "the limit for a file read whole",
                             std::chrono::milliseconds fifo_wait = kFifoWait);

}  // namespace structure
