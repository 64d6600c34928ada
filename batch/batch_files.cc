#include "batch/batch_files.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

#include "base/line_reader.h"
#include "base/output_file.h"
#include "base/read_file.h"
#include "batch/batch_line.h"
#include "batch/job_identity.h"

namespace structure::batch {
namespace {

BatchLine ParseInputLine(const BatchLineText& text) {
  if (text.too_long) return LineTooLong(text.line_no, kMaxLineBytes);
  return ParseBatchLine(text.text, text.line_no, {});
}

// `path` opened for reading (base/read_file.h: a FIFO nobody writes is not waited for forever).
Result<std::FILE*> OpenInputFile(const std::string& path) {
  auto opened = OpenForReading(path);
  if (!opened.ok()) return opened.status();
  std::FILE* f = ::fdopen(opened->fd, "r");
  if (f == nullptr) {
    ::close(opened->fd);
    return Unavailable("cannot read " + path + ": " + std::strerror(errno));
  }
  if (!opened->head.empty()) std::ungetc(static_cast<unsigned char>(opened->head[0]), f);
  return f;
}

bool SameFile(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// Refuses a resume whose OUT holds records this input does not have.
Status CheckBelongs(const JournalScan& scan, const FileOptions& o) {
  auto keys = InputKeys(o.in_path, o.shard);
  if (!keys.ok()) return keys.status();
  std::unordered_set<std::string> input(keys->begin(), keys->end());
  uint64_t foreign = 0;
  std::string example;
  for (const std::string& key : scan.done) {
    if (input.count(key)) continue;
    if (foreign++ == 0 || key < example) example = key;
  }
  if (foreign == 0) return Status::Ok();
  return Status(Code::kFailedPrecondition,
                o.out_path + " holds " + std::to_string(foreign) + " result" +
                    (foreign == 1 ? "" : "s") + " for records that are not in " + o.in_path +
                    " (e.g. " + example +
                    "): it was written from another input. Give a new -o FILE, or --overwrite to "
                    "start " +
                    o.out_path + " over");
}

}  // namespace

Status ForEachInputLine(const std::string& path,
                        const std::function<void(const BatchLineText&)>& each) {
  auto opened = OpenInputFile(path);
  if (!opened.ok()) return opened.status();
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(*opened, &std::fclose);
  LineReader reader(f.get(), kMaxLineBytes);
  for (;;) {
    LineReader::Got got = reader.Next();
    if (got == LineReader::Got::kInterrupted) continue;
    if (got == LineReader::Got::kError)
      return Unavailable("cannot read " + path + ": " + std::strerror(errno));
    if (got == LineReader::Got::kEnd) return Status::Ok();
    bool too_long = got == LineReader::Got::kTooLong;
    if (!too_long && IsBlankLine(reader.line())) continue;
    each({too_long ? std::string_view() : reader.line(), reader.line_no(), too_long});
  }
}

Result<std::vector<std::string>> InputKeys(const std::string& path, const Shard& shard) {
  std::vector<std::string> keys;
  std::unordered_set<std::string> seen;
  Status read = ForEachInputLine(path, [&](const BatchLineText& text) {
    BatchLine line = ParseInputLine(text);
    if (shard.count > 1 && ShardOf(ShardKey(line.id, text.line_no), shard.count) != shard.index)
      return;
    std::string key = line.key;
    if (!line.id.is_null() && !seen.insert(key).second) key = KeyForLine(text.line_no);
    keys.push_back(std::move(key));
  });
  if (!read.ok()) return read;
  return keys;
}

Result<uint64_t> CountRecords(const std::string& path, const Shard& shard) {
  uint64_t n = 0;
  Status read = ForEachInputLine(path, [&](const BatchLineText& text) {
    if (shard.count > 1) {
      BatchLine line = ParseInputLine(text);
      if (ShardOf(ShardKey(line.id, text.line_no), shard.count) != shard.index) return;
    }
    ++n;
  });
  if (!read.ok()) return read;
  return n;
}

namespace {

// The input: stdin or a file, never a directory. `in_st` gets what it is.
Status OpenInput(const FileOptions& o, JobFiles& files, struct stat& in_st) {
  if (o.in_path == "-") {
    files.in = stdin;
    if (::fstat(STDIN_FILENO, &in_st) == 0 && S_ISDIR(in_st.st_mode)) {
      return InvalidArgument("the input (stdin) is a directory");
    }
    return Status::Ok();
  }
  if (::stat(o.in_path.c_str(), &in_st) == 0 && S_ISDIR(in_st.st_mode)) {
    return InvalidArgument(o.in_path + " is a directory: give a JSONL file (or - for stdin)");
  }
  auto opened = OpenInputFile(o.in_path);
  if (!opened.ok()) return opened.status();
  files.in = *opened;
  files.in_owner.reset(files.in);
  ::fstat(::fileno(files.in), &in_st);
  return Status::Ok();
}

// What OUT may be before it is opened: not a directory, not the input, and a regular file
// (or none yet) when it is to be resumed. Returns where it really is (a link followed).
Result<OutputTarget> CheckOutput(const FileOptions& o, const struct stat& in_st) {
  struct stat out_st {};
  if (::stat(o.out_path.c_str(), &out_st) == 0) {
    if (S_ISDIR(out_st.st_mode))
      return InvalidArgument(o.out_path + " is a directory: give -o a file");
    if (S_ISREG(in_st.st_mode) && SameFile(in_st, out_st)) {
      return InvalidArgument(o.out_path + " is the input file" +
                             (o.in_path == "-" ? std::string(" (stdin)") : " " + o.in_path) +
                             ": write the results to another file");
    }
  }
  auto target = ResolveOutput(o.out_path);
  if (!target.ok()) return Status(target.status().code(), "-o " + target.status().message());
  if (o.resume) STRUCTURE_RETURN_IF_ERROR(CheckResumable(*target, o.out_path));
  return target;
}

// OUT.job: checked on --resume (before OUT is touched), written otherwise. A device or FIFO
// has none: it cannot be resumed.
Status KeepIdentity(const FileOptions& o, const OutputTarget& out, JobFiles& files) {
  if (out.in_place()) return Status::Ok();
  JobIdentity now = IdentityOf(o.in_path, o.shard);
  if (!o.resume) return RecordJob(out.path, now);
  std::string note;
  STRUCTURE_RETURN_IF_ERROR(CheckJob(out.path, o.out_path, now, &note));
  if (!note.empty()) files.notes.push_back(note);
  return Status::Ok();
}

// Checked once OUT is locked (so a job in progress is named first): a file with results is
// neither resumed nor overwritten unless asked.
Status CheckNotStarted(const FileOptions& o) {
  if (o.resume || o.overwrite) return Status::Ok();
  struct stat out_st {};
  if (::stat(o.out_path.c_str(), &out_st) == 0 && S_ISREG(out_st.st_mode) && out_st.st_size > 0) {
    return InvalidArgument(o.out_path +
                           " exists: use --resume to continue it or --overwrite to start over");
  }
  return Status::Ok();
}

// --resume: what OUT already holds, and that it belongs to this input.
Status Recover(const FileOptions& o, const struct stat& in_st, JobFiles& files) {
  auto recovered = RecoverJournal(o.out_path, &*files.journal);
  if (!recovered.ok()) return recovered.status();
  files.scan = std::move(*recovered);
  if (files.scan.dropped_torn_tail)
    files.notes.push_back("dropped a torn last line of " + o.out_path);
  if (files.scan.dropped_cancelled > 0) {
    files.notes.push_back(std::to_string(files.scan.dropped_cancelled) + " cancelled records of " +
                          o.out_path + " run again");
  }
  if (o.in_path != "-" && S_ISREG(in_st.st_mode) && !files.scan.done.empty()) {
    STRUCTURE_RETURN_IF_ERROR(CheckBelongs(files.scan, o));
  }
  return Status::Ok();
}

}  // namespace

Result<JobFiles> OpenJobFiles(const FileOptions& o) {
  JobFiles files;
  struct stat in_st {};
  STRUCTURE_RETURN_IF_ERROR(OpenInput(o, files, in_st));
  if (o.out_path.empty()) {
    files.journal.emplace(JournalWriter::ForFd(STDOUT_FILENO));
    return files;
  }
  auto out = CheckOutput(o, in_st);
  if (!out.ok()) return out.status();
  auto opened = JournalWriter::Open(o.out_path, o.overwrite, o.fsync);
  if (!opened.ok()) return opened.status();
  files.journal.emplace(std::move(*opened));
  files.resumable = !out->in_place();
  STRUCTURE_RETURN_IF_ERROR(CheckNotStarted(o));
  STRUCTURE_RETURN_IF_ERROR(KeepIdentity(o, *out, files));
  if (o.resume) STRUCTURE_RETURN_IF_ERROR(Recover(o, in_st, files));
  return files;
}

}  // namespace structure::batch
