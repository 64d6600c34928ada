// Small POSIX file helpers shared by the batch journal and the provider batch state file:
// errno turned into a Status that names the file, a write that finishes or fails, and a
// directory sync so a rename survives a crash.
#pragma once

#include <string>
#include <string_view>

#include "base/status.h"

namespace structure::batch {

// kUnavailable "<what> <path>: <strerror(errno)>".
Status OsError(const std::string& what, const std::string& path);

// Writes all of `data` to `fd`, retrying short writes and EINTR; `name` is the file's name for
// the error.
Status WriteAll(int fd, std::string_view data, const std::string& name);

// fsync of the directory `dir`, so a file created or renamed in it stays after a crash.
Status SyncDir(const std::string& dir);

}  // namespace structure::batch
