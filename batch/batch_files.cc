#include "batch/batch_files.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <unordered_set>

#include "batch/batch_line.h"

namespace structure::batch {
namespace {

bool SameFile(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// Refuses a resume whose OUT holds records this input does not have.
Status CheckBelongs(const JournalScan& scan, const FileOptions& o) {
  auto keys = InputKeys(o.in_path);
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

Result<std::vector<std::string>> InputKeys(const std::string& path) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "r"), &std::fclose);
  if (!f) return NotFound("cannot open " + path + ": " + std::strerror(errno));
  std::vector<std::string> keys;
  std::unordered_set<std::string> seen;
  char* buf = nullptr;
  size_t cap = 0;
  uint64_t line_no = 0;
  ssize_t n;
  while ((n = getline(&buf, &cap, f.get())) >= 0) {
    ++line_no;
    std::string_view text(buf, static_cast<size_t>(n));
    if (IsBlankLine(text)) continue;
    BatchLine line = ParseBatchLine(text, line_no, {});
    std::string key = line.key;
    if (!line.id.is_null() && !seen.insert(key).second) key = KeyForLine(line_no);
    keys.push_back(std::move(key));
  }
  std::free(buf);
  if (std::ferror(f.get())) return Unavailable("cannot read " + path + ": " + std::strerror(errno));
  return keys;
}

Result<JobFiles> OpenJobFiles(const FileOptions& o) {
  JobFiles files;
  struct stat in_st {};
  if (o.in_path == "-") {
    files.in = stdin;
    if (::fstat(STDIN_FILENO, &in_st) == 0 && S_ISDIR(in_st.st_mode)) {
      return InvalidArgument("the input (stdin) is a directory");
    }
  } else {
    if (::stat(o.in_path.c_str(), &in_st) == 0 && S_ISDIR(in_st.st_mode)) {
      return InvalidArgument(o.in_path + " is a directory: give a JSONL file (or - for stdin)");
    }
    files.in = std::fopen(o.in_path.c_str(), "r");
    if (files.in == nullptr)
      return NotFound("cannot open " + o.in_path + ": " + std::strerror(errno));
    files.in_owner.reset(files.in);
    ::fstat(::fileno(files.in), &in_st);
  }
  if (o.out_path.empty()) {
    files.journal.emplace(JournalWriter::ForFd(STDOUT_FILENO));
    return files;
  }
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
  auto opened = JournalWriter::Open(o.out_path, o.overwrite, o.fsync);
  if (!opened.ok()) return opened.status();
  files.journal.emplace(std::move(*opened));
  if (!o.resume && !o.overwrite && ::stat(o.out_path.c_str(), &out_st) == 0 && out_st.st_size > 0) {
    return InvalidArgument(o.out_path +
                           " exists: use --resume to continue it or --overwrite to start over");
  }
  if (o.resume) {
    auto recovered = RecoverJournal(o.out_path, &*files.journal);
    if (!recovered.ok()) return recovered.status();
    files.scan = std::move(*recovered);
    if (files.scan.dropped_torn_tail)
      files.notes.push_back("dropped a torn last line of " + o.out_path);
    if (files.scan.dropped_cancelled > 0) {
      files.notes.push_back(std::to_string(files.scan.dropped_cancelled) +
                            " cancelled records of " + o.out_path + " run again");
    }
    if (o.in_path != "-" && S_ISREG(in_st.st_mode) && !files.scan.done.empty()) {
      STRUCTURE_RETURN_IF_ERROR(CheckBelongs(files.scan, o));
    }
  }
  return files;
}

}  // namespace structure::batch
