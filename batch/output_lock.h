// The exclusive lock a `structure batch` job holds on its output file (the journal) for its whole
// life, so a second job on the same file (a --resume while the first still runs) stops at once
// instead of writing every record twice.
#pragma once

#include <string>

#include "base/status.h"

namespace structure::batch {

// Opens `path` for appending (created if missing, 0644) and takes an exclusive flock(2) on it
// without waiting. The lock lasts until the descriptor is closed. Guards against the file being
// replaced (renamed over) between open and lock. kFailedPrecondition when another process holds
// it, naming the file and, when /proc/locks tells, the holder's pid; kUnavailable with the OS
// reason when it cannot be opened.
Result<int> OpenLocked(const std::string& path, int extra_flags = 0);

// The pid of the process holding a flock on the file open as `fd`, or 0 when unknown.
int LockHolder(int fd);

}  // namespace structure::batch
