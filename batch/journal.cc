#include "batch/journal.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "base/json.h"
#include "base/output_file.h"
#include "base/read_file.h"
#include "batch/batch_line.h"
#include "batch/output_lock.h"
#include "structure/error_code.h"

namespace structure::batch {
namespace {

uint64_t Tokens(const Json& result, std::string_view key) {
  const Json* usage = result.find("usage");
  const Json* v = usage ? usage->find(key) : nullptr;
  return v && v->is_number() && v->as_double() > 0 ? static_cast<uint64_t>(v->as_int()) : 0;
}

// Atomically replaces the regular file `path` (a link's target, never the link) with
// `content`, keeping its permissions: a crash leaves either the old or the new file. The new
// file is locked before it takes the name, so the job's lock never lapses; its descriptor (open
// for appending) is returned.
Result<int> Rewrite(const std::string& path, std::string_view content) {
  std::string tmp = path + ".resume-tmp";
  struct stat old {};
  bool keep_mode = ::stat(path.c_str(), &old) == 0;
  auto fd = OpenLocked(tmp, O_TRUNC);
  if (!fd.ok()) return fd.status();
  Status st = WriteAll(*fd, content, tmp);
  if (st.ok() && keep_mode && ::fchmod(*fd, old.st_mode & 07777) != 0)
    st = OsError("cannot keep the permissions of", path);
  if (st.ok() && ::fsync(*fd) != 0) st = OsError("cannot sync", tmp);
  if (st.ok() && std::rename(tmp.c_str(), path.c_str()) != 0)
    st = OsError("cannot rename onto", path);
  if (!st.ok()) {
    ::unlink(tmp.c_str());
    ::close(*fd);
    return st;
  }
  return fd;
}

// A line of OUT that batch did not write, named by its one position (the file's line) with
// what to do: --resume never guesses past it.
Status NotAResultLine(const std::string& path, uint64_t line_no, const std::string& why) {
  std::string n = std::to_string(line_no);
  return InvalidArgument(path + ":" + n + ": not a result line of structure batch (" + why +
                         "): --resume continues only what batch wrote; delete or fix line " + n +
                         ", or start over with --overwrite");
}

// ParseJson's "<input>:1:COL: what" of a one-line text as "column COL: what".
std::string JsonError(const std::string& message) {
  const std::string prefix = ParseOptions().source + ":1:";
  if (message.rfind(prefix, 0) != 0) return message;
  return "column " + message.substr(prefix.size());
}

}  // namespace

Status CheckResumable(const OutputTarget& target, const std::string& path) {
  if (!target.in_place()) return Status::Ok();
  return InvalidArgument("--resume needs a regular file to continue: " + path + " is " +
                         std::string(OutputKindName(target.kind)));
}

Result<JournalScan> RecoverJournal(const std::string& path, JournalWriter* writer) {
  JournalScan scan;
  auto target = ResolveOutput(path);
  if (!target.ok()) return target.status();
  if (target->kind == OutputKind::kMissing) return scan;
  STRUCTURE_RETURN_IF_ERROR(CheckResumable(*target, path));
  const std::string& real = target->path;  // a link's target: the link itself stays
  auto text = ReadFile(real, SIZE_MAX);    // the job's own output: any size
  if (!text.ok()) return text.status();
  std::string_view all = *text;
  size_t complete = all.rfind('\n');
  complete = complete == std::string_view::npos ? 0 : complete + 1;
  scan.dropped_torn_tail = complete < all.size();

  std::string kept;
  uint64_t line_no = 0;
  for (size_t pos = 0; pos < complete;) {
    size_t nl = all.find('\n', pos);
    std::string_view line = all.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (IsBlankLine(line)) continue;
    auto rec = ParseJson(line);
    if (!rec.ok())
      return NotAResultLine(path, line_no, "not JSON at " + JsonError(rec.status().message()));
    const Json* status = rec->find("status");
    if (!status || !status->is_string())
      return NotAResultLine(path, line_no, "it has no \"status\"");
    std::string key;
    if (const Json* id = rec->find("id")) {
      key = KeyForId(*id);
    } else if (const Json* n = rec->find("line"); n && n->is_int()) {
      key = KeyForLine(static_cast<uint64_t>(n->as_int()));
    } else {
      return NotAResultLine(path, line_no, "it has neither \"id\" nor \"line\"");
    }
    const Json* code = rec->find("code");
    if (status->as_string() == "error" && code && code->is_string() &&
        ErrorCodeFromName(code->as_string()) == ErrorCode::kCancelled) {
      ++scan.dropped_cancelled;
      continue;
    }
    if (!scan.done.insert(key).second) continue;
    scan.counts.AddNamed(status->as_string(), Tokens(*rec, "inputTokens"),
                         Tokens(*rec, "outputTokens"));
    const Json* ev = rec->find("evidence");
    const Json* ug = rec->find("ungrounded");
    scan.counts.AddEvidence(ev != nullptr ? *ev : Json(), ug != nullptr ? *ug : Json());
    ++scan.records;
    kept.append(line);
    kept.push_back('\n');
  }
  if (scan.dropped_cancelled > 0 || kept.size() != complete) {
    auto fd = Rewrite(real, kept);
    if (!fd.ok()) return fd.status();
    if (writer != nullptr) {
      writer->Adopt(*fd);
    } else {
      ::close(*fd);
    }
  } else if (scan.dropped_torn_tail) {
    if (::truncate(real.c_str(), static_cast<off_t>(complete)) != 0)
      return OsError("cannot truncate", path);
  }
  return scan;
}

Result<JournalWriter> JournalWriter::Open(const std::string& path, bool truncate, bool sync) {
  auto target = ResolveOutput(path);
  if (!target.ok()) return target.status();
  if (target->in_place()) {
    // A device or FIFO is written as it is: nothing to lock, empty or recover.
    auto fd = OpenForAppend(*target);
    if (!fd.ok()) return fd.status();
    if (target->kind == OutputKind::kFifo) SetNonBlocking(*fd);  // our own open: our own flags
    return JournalWriter(*fd, true, false, path);
  }
  // Never O_TRUNC: emptying a file another job is writing is the very thing the lock prevents.
  auto fd = OpenLocked(target->path);
  if (!fd.ok()) return fd.status();
  if (truncate && ::ftruncate(*fd, 0) != 0) {
    Status st = OsError("cannot empty", path);
    ::close(*fd);
    return st;
  }
  return JournalWriter(*fd, true, sync, path);
}

void JournalWriter::Adopt(int fd) {
  if (owned_ && fd_ >= 0) ::close(fd_);
  fd_ = fd;
  owned_ = true;
}

JournalWriter JournalWriter::ForFd(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode)) {
    // The shell's description of the pipe is shared: flags are set on a new one of our own.
    std::string self = "/proc/self/fd/" + std::to_string(fd);
    int own = ::open(self.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (own >= 0) return JournalWriter(own, true, false, "<stdout>");
  }
  return JournalWriter(fd, false, false, "<stdout>");
}

JournalWriter::JournalWriter(JournalWriter&& o) noexcept
    : fd_(o.fd_),
      owned_(o.owned_),
      sync_(o.sync_),
      name_(std::move(o.name_)),
      give_up_(std::move(o.give_up_)) {
  o.fd_ = -1;
  o.owned_ = false;
}

JournalWriter& JournalWriter::operator=(JournalWriter&& o) noexcept {
  if (this != &o) {
    if (owned_ && fd_ >= 0) ::close(fd_);
    fd_ = o.fd_;
    owned_ = o.owned_;
    sync_ = o.sync_;
    name_ = std::move(o.name_);
    give_up_ = std::move(o.give_up_);
    o.fd_ = -1;
    o.owned_ = false;
  }
  return *this;
}

JournalWriter::~JournalWriter() {
  if (owned_ && fd_ >= 0) ::close(fd_);
}

Status JournalWriter::Append(std::string_view lines, size_t* written) {
  if (written != nullptr) *written = 0;
  if (lines.empty()) return Status::Ok();
  STRUCTURE_RETURN_IF_ERROR(WriteAll(fd_, lines, name_, written, give_up_));
  if (sync_ && ::fdatasync(fd_) != 0) return OsError("cannot sync", name_);
  return Status::Ok();
}

}  // namespace structure::batch
