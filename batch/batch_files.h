// The files of a `structure batch` job, opened and checked before any call: the input (a file
// or stdin, never a directory), the output journal (never the input itself, locked for the
// job's life) and, with --resume, what the journal already holds and that it belongs to this
// input.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "batch/journal.h"
#include "batch/shard.h"
#include "structure/status.h"

namespace structure::batch {

struct FileOptions {
  std::string in_path = "-";  // "-" = stdin
  std::string out_path;       // "" = stdout
  bool resume = false;
  bool overwrite = false;
  bool fsync = false;
  Shard shard;  // --shard: recorded beside OUT, and what a resume must match
};

struct JobFiles {
  std::FILE* in = nullptr;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> in_owner{nullptr, &std::fclose};
  std::optional<JournalWriter> journal;
  JournalScan scan;        // --resume: the records OUT already holds
  bool resumable = false;  // OUT is a regular file (not stdout, a device or a FIFO)
  std::vector<std::string>
      notes;  // to tell the user (a torn line dropped, cancelled records rerun)
};

// Opens and checks, in this order: the input (kInvalidArgument for a directory, kNotFound when
// it cannot be opened); the output is not the input (same file, through links too); the output
// locked (output_lock.h), refused when it has results and neither resume nor overwrite is set,
// emptied with overwrite; its job file (job_identity.h) written, or with resume checked
// (kFailedPrecondition naming --shard or the input that differs); recovered with resume. With
// resume and a regular input file, results in OUT whose id no input record of this shard has
// mean OUT was written from another input: kFailedPrecondition saying how to go on. A device or
// FIFO as OUT is written in place, never resumed (base/output_file.h).
Result<JobFiles> OpenJobFiles(const FileOptions& options);

// The record keys of an input file in `shard`, as the batch runner gives them (batch_line.h
// KeyForId, or KeyForLine for a line without a readable id or with an id already used).
Result<std::vector<std::string>> InputKeys(const std::string& path, const Shard& shard = {});

// The records of an input file in `shard` (its non-blank lines, sharded as the runner does), for
// the progress line's ETA. Reads the file through: only for a regular file (a FIFO's lines would
// be taken from the job).
Result<uint64_t> CountRecords(const std::string& path, const Shard& shard);

// A non-blank input line: its text (empty when too long) and number (1-based, blank lines
// counted).
struct BatchLineText {
  std::string_view text;
  uint64_t line_no = 0;
  bool too_long = false;  // longer than kMaxLineBytes (batch_line.h): a bad line
};

// Calls `each` for every non-blank line of the file at `path` (opened as base/read_file.h says).
// kNotFound when it cannot be opened, kUnavailable when a read fails.
Status ForEachInputLine(const std::string& path,
                        const std::function<void(const BatchLineText&)>& each);

}  // namespace structure::batch
