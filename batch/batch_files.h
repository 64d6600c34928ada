// The files of a `structure batch` job, opened and checked before any call: the input (a file
// or stdin, never a directory), the output journal (never the input itself, locked for the
// job's life) and, with --resume, what the journal already holds and that it belongs to this
// input.
#pragma once

#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"
#include "batch/journal.h"

namespace structure::batch {

struct FileOptions {
  std::string in_path = "-";  // "-" = stdin
  std::string out_path;       // "" = stdout
  bool resume = false;
  bool overwrite = false;
  bool fsync = false;
};

struct JobFiles {
  std::FILE* in = nullptr;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> in_owner{nullptr, &std::fclose};
  std::optional<JournalWriter> journal;
  JournalScan scan;  // --resume: the records OUT already holds
  std::vector<std::string>
      notes;  // to tell the user (a torn line dropped, cancelled records rerun)
};

// Opens and checks, in this order: the input (kInvalidArgument for a directory, kNotFound when
// it cannot be opened); the output is not the input (same file, through links too); the output
// locked (output_lock.h), refused when it has results and neither resume nor overwrite is set,
// emptied with overwrite, recovered with resume. With resume and a regular input file, results
// in OUT whose id no input line has mean OUT was written from another input:
// kFailedPrecondition saying how to go on.
Result<JobFiles> OpenJobFiles(const FileOptions& options);

// The record keys of an input file, as the batch runner gives them (batch_line.h KeyForId, or
// KeyForLine for a line without a readable id or with an id already used).
Result<std::vector<std::string>> InputKeys(const std::string& path);

}  // namespace structure::batch
