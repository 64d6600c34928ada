// The rules for every file the program writes at a path a user named (batch OUT and its resume
// rewrites, --stats, sim --record-requests, ...):
//   - a regular file, or a path where nothing is yet, is replaced atomically: a new file in the
//     same folder, synced, renamed over it (a reader sees the old content or the new, whole);
//   - a symbolic link is followed to its final target, which is written by these same rules, so
//     the link stays a link and points at the new content;
//   - a character or block device, or a FIFO, is written in place: opened, written, never
//     replaced, truncated or renamed (so `--stats /dev/null` leaves /dev/null a device);
//   - anything else (a directory, a socket) is refused, with its type named.
// Appending writers (a journal, a request log) follow the same rules, appending instead of
// replacing.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <string>
#include <string_view>

#include "base/read_file.h"
#include "structure/status.h"

namespace structure {

enum class OutputKind {
  kMissing,  // nothing there yet: created as a regular file
  kRegular,
  kDevice,  // character or block device
  kFifo,
};

struct OutputTarget {
  std::string path;  // where the bytes go: the final target of a chain of links, else as given
  OutputKind kind = OutputKind::kMissing;
  // A device or FIFO: written in place, never truncated, replaced or locked.
  bool in_place() const { return kind == OutputKind::kDevice || kind == OutputKind::kFifo; }
};

// "a new file", "a regular file", "a device", "a FIFO".
std::string_view OutputKindName(OutputKind kind);

// "a directory", "a socket", "a FIFO", "a character device", "a block device", "a regular file",
// "a symbolic link".
std::string_view FileTypeName(mode_t mode);

// Follows `path` through symbolic links (relative targets are relative to the link's folder; a
// link to a missing file resolves to that file's path) and says what is there. kInvalidArgument
// "<path> is a directory: give a file" (or a socket, ...) for what may not be written, and for a
// chain of more than 40 links; for a new file whose folder does not exist (or is no folder),
// kInvalidArgument "<path>: the folder <dir> does not exist: create it (mkdir -p <dir>) or give a
// path in an existing folder"; kUnavailable with the OS reason when it cannot be looked at.
Result<OutputTarget> ResolveOutput(const std::string& path);

// Writes `content` as the whole of the file at `path` by the rules above. Errors as
// ResolveOutput, or kUnavailable "cannot write <path>: <OS reason>".
Status WriteOutputFile(const std::string& path, std::string_view content);

// Opens `target` (from ResolveOutput) for appending: a regular or missing file is opened with
// O_APPEND (created 0644 minus the umask), a device or FIFO in place. A FIFO nobody reads yet is
// waited for up to `fifo_wait`, then kUnavailable "<path> is a FIFO that no process reads: start
// its reader first".
// `extra_flags` are added to open(2)'s for a regular file (O_TRUNC for a fresh file).
Result<int> OpenForAppend(const OutputTarget& target, int extra_flags = 0,
                          std::chrono::milliseconds fifo_wait = kFifoWait);

// Writes all of `data` to `fd`, retrying short writes and EINTR; kUnavailable "cannot write
// <name>: <OS reason>" when a write fails. `written`, when given, gets the bytes written (all of
// them, or those before the failure). A non-blocking `fd` whose reader does not read is waited
// for (poll), and `give_up`, when set, is asked every 100 ms meanwhile: when it says so the write
// stops with kCancelled "cannot write <name>: stopped while its reader was not reading".
Status WriteAll(int fd, std::string_view data, const std::string& name, size_t* written = nullptr,
                const std::function<bool()>& give_up = {});

// Sets (or clears) O_NONBLOCK on the open file description of `fd`: only for one this process
// opened itself, since a description is shared by every descriptor duplicated from it.
void SetNonBlocking(int fd, bool on = true);

// kUnavailable "<what> <path>: <strerror(errno)>".
Status OsError(const std::string& what, const std::string& path);

// fsync of the folder `dir`, so a file created or renamed in it stays after a crash.
Status SyncDir(const std::string& dir);

}  // namespace structure
