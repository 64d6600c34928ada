// The batch output file as a journal: every result is appended as one complete line with one
// write(2) as soon as it is known, so a job killed at any moment loses at most the line being
// written. Recovery (for --resume) drops a torn last line and records that were cancelled, and
// tells which records are done.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_set>

#include "base/output_file.h"
#include "batch/progress.h"
#include "structure/status.h"

namespace structure::batch {

struct JournalScan {
  std::unordered_set<std::string> done;  // record keys (batch_line.h KeyForId / KeyForLine)
  BatchCounts counts;                    // statuses of the records kept
  uint64_t records = 0;                  // lines kept
  bool dropped_torn_tail = false;        // the last line had no newline and was removed
  uint64_t dropped_cancelled = 0;        // "cancelled" records removed so they run again
};

class JournalWriter;

// A device or FIFO (`target` of the user's `path`) cannot be resumed: kInvalidArgument saying so.
Status CheckResumable(const OutputTarget& target, const std::string& path);

// Scans `path` (a missing or empty file is an empty journal; a symbolic link is followed and
// its target scanned and rewritten, the link kept). A last line without its newline is
// truncated away; cancelled records are removed by rewriting the file atomically (temp file
// + rename). A device or FIFO cannot be resumed: kInvalidArgument. A complete line that is not a
// JSON object with "id" or "line" and "status" is kInvalidArgument ("OUT:7: ..."), since resuming
// past it could duplicate or lose a record. `writer`, when given, is the job's open (locked) writer
// on `path`: after a rewrite it writes to, and holds the lock on, the new file.
Result<JournalScan> RecoverJournal(const std::string& path, JournalWriter* writer = nullptr);

class JournalWriter {
 public:
  // Opens `path` for appending (created if missing; a symbolic link's target) and locks it for
  // the writer's life (output_lock.h: kFailedPrecondition while another job holds it); emptied
  // after locking when `truncate`. With `sync`, every Append is followed by fdatasync (survives
  // power loss, not only kill). A device or FIFO is written in place: not locked, emptied or
  // synced. Other kinds of file are refused (base/output_file.h).
  static Result<JournalWriter> Open(const std::string& path, bool truncate, bool sync);
  // Writes to an already open descriptor it does not own (stdout); a pipe is written through a
  // description of its own, non-blocking, so that a reader that stops reading cannot hold the
  // job past StopWhen.
  static JournalWriter ForFd(int fd);

  JournalWriter(JournalWriter&& other) noexcept;
  JournalWriter& operator=(JournalWriter&& other) noexcept;
  JournalWriter(const JournalWriter&) = delete;
  JournalWriter& operator=(const JournalWriter&) = delete;
  ~JournalWriter();

  // Appends complete lines (each ending in '\n'); retries short writes and EINTR.
  // kUnavailable with the OS reason when the write fails (disk full, closed pipe). `written`,
  // when given, gets the bytes that reached the file (all, or those before the failure).
  Status Append(std::string_view lines, size_t* written = nullptr);

  // While a FIFO's or pipe's reader is not reading, Append waits, asking `give_up` every 100 ms;
  // when it says so, Append stops with kCancelled (base/output_file.h WriteAll). Empty: wait.
  void StopWhen(std::function<bool()> give_up) { give_up_ = std::move(give_up); }

  // Whether every Append waits for the disk (fdatasync).
  bool syncs() const { return sync_; }

 private:
  friend Result<JournalScan> RecoverJournal(const std::string& path, JournalWriter* writer);
  // Writes to `fd` (owned) from now on, closing the descriptor it had.
  void Adopt(int fd);
  JournalWriter(int fd, bool owned, bool sync, std::string name)
      : fd_(fd), owned_(owned), sync_(sync), name_(std::move(name)) {}
  int fd_ = -1;
  bool owned_ = false;
  bool sync_ = false;
  std::string name_;
  std::function<bool()> give_up_;
};

}  // namespace structure::batch
