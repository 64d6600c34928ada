#include "base/output_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <thread>

namespace structure {
namespace {

constexpr int kMaxLinks = 40;  // as the kernel's own limit for one lookup

std::string Folder(const std::string& path) {
  size_t slash = path.rfind('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// The path a chain of links ends at (lstat-ing every step); `path` itself when it is no link.
Result<std::string> FollowLinks(const std::string& path) {
  std::string p = path;
  for (int i = 0; i <= kMaxLinks; ++i) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno == ENOENT || errno == ENOTDIR) return p;  // ResolveOutput names the folder
      return OsError("cannot look at", p);
    }
    if (!S_ISLNK(st.st_mode)) return p;
    std::string target(static_cast<size_t>(st.st_size > 0 ? st.st_size : 4096) + 1, '\0');
    ssize_t n = ::readlink(p.c_str(), target.data(), target.size());
    if (n < 0) return OsError("cannot read the link", p);
    target.resize(static_cast<size_t>(n));
    p = !target.empty() && target[0] == '/' ? target : Folder(p) + "/" + target;
  }
  return InvalidArgument(path + ": more than " + std::to_string(kMaxLinks) +
                         " symbolic links in a row (a loop?)");
}

// The folder a new file `target` (reached from `path`) would be created in: kInvalidArgument
// naming it when it does not exist or is no folder, with what to do.
Status CheckFolder(const std::string& path, const std::string& target) {
  std::string folder = Folder(target);
  std::string shown = target == path ? path : path + " (-> " + target + ")";
  struct stat st {};
  if (::stat(folder.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) return Status::Ok();
    return InvalidArgument(shown + ": " + folder + " is " + std::string(FileTypeName(st.st_mode)) +
                           ", not a folder: give a path in an existing folder");
  }
  if (errno == ENOENT) {
    return InvalidArgument(shown + ": the folder " + folder +
                           " does not exist: create it (mkdir -p " + folder +
                           ") or give a path in an existing folder");
  }
  if (errno == ENOTDIR) {
    return InvalidArgument(shown + ": a part of " + folder +
                           " is a file, not a folder: give a path in an existing folder");
  }
  return OsError("cannot look at the folder", folder);
}

// A fresh file beside `path`, open for writing, created 0644 minus the umask.
Result<std::pair<int, std::string>> CreateBeside(const std::string& path) {
  static std::atomic<unsigned> counter{0};
  std::string folder = Folder(path);
  std::string base = path.substr(path.rfind('/') == std::string::npos ? 0 : path.rfind('/') + 1);
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::string tmp = folder + "/." + base + ".tmp-" + std::to_string(::getpid()) + "-" +
                      std::to_string(counter.fetch_add(1));
    int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd >= 0) return std::make_pair(fd, tmp);
    if (errno != EEXIST) return OsError("cannot create a file in", folder);
  }
  return Unavailable("cannot create a temporary file in " + folder);
}

// Replaces the regular (or missing) file at `path` with `content`, keeping its permissions.
Status ReplaceAtomically(const std::string& path, std::string_view content) {
  struct stat old {};
  bool existed = ::stat(path.c_str(), &old) == 0;
  auto created = CreateBeside(path);
  if (!created.ok()) return created.status();
  auto [fd, tmp] = *created;
  Status st = WriteAll(fd, content, path);
  if (st.ok() && existed && ::fchmod(fd, old.st_mode & 07777) != 0)
    st = OsError("cannot keep the permissions of", path);
  if (st.ok() && ::fsync(fd) != 0) st = OsError("cannot sync", path);
  if (::close(fd) != 0 && st.ok()) st = OsError("cannot write", path);
  if (st.ok() && std::rename(tmp.c_str(), path.c_str()) != 0) st = OsError("cannot replace", path);
  if (!st.ok()) {
    ::unlink(tmp.c_str());
    return st;
  }
  return SyncDir(Folder(path));
}

}  // namespace

void SetNonBlocking(int fd, bool on) {
  int flags = ::fcntl(fd, F_GETFL);
  if (flags >= 0) ::fcntl(fd, F_SETFL, on ? flags | O_NONBLOCK : flags & ~O_NONBLOCK);
}

Status OsError(const std::string& what, const std::string& path) {
  return Unavailable(what + " " + path + ": " + std::strerror(errno));
}

Status SyncDir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return OsError("cannot open", dir);
  int rc = ::fsync(fd);
  ::close(fd);
  return rc == 0 ? Status::Ok() : OsError("cannot sync", dir);
}

std::string_view OutputKindName(OutputKind kind) {
  switch (kind) {
    case OutputKind::kMissing:
      return "a new file";
    case OutputKind::kRegular:
      return "a regular file";
    case OutputKind::kDevice:
      return "a device";
    case OutputKind::kFifo:
      return "a FIFO";
  }
  return "a file";
}

std::string_view FileTypeName(mode_t mode) {
  if (S_ISREG(mode)) return "a regular file";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "a special file";
}

Result<OutputTarget> ResolveOutput(const std::string& path) {
  if (path.empty()) return InvalidArgument("the file name is empty");
  auto followed = FollowLinks(path);
  if (!followed.ok()) return followed.status();
  OutputTarget t;
  t.path = *followed;
  struct stat st {};
  if (::stat(t.path.c_str(), &st) != 0) {
    if (errno != ENOENT && errno != ENOTDIR) return OsError("cannot look at", t.path);
    STRUCTURE_RETURN_IF_ERROR(CheckFolder(path, t.path));
    t.kind = OutputKind::kMissing;
    return t;
  }
  if (S_ISREG(st.st_mode)) {
    t.kind = OutputKind::kRegular;
  } else if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
    t.kind = OutputKind::kDevice;
  } else if (S_ISFIFO(st.st_mode)) {
    t.kind = OutputKind::kFifo;
  } else {
    std::string shown = t.path == path ? path : path + " (-> " + t.path + ")";
    return InvalidArgument(shown + " is " + std::string(FileTypeName(st.st_mode)) +
                           ": give a file (or a FIFO or device) to write to");
  }
  return t;
}

Status WriteAll(int fd, std::string_view data, const std::string& name, size_t* written,
                const std::function<bool()>& give_up) {
  size_t done = 0;
  Status st;
  while (done < data.size()) {
    ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      if (errno == EAGAIN || errno == EWOULDBLOCK) {  // a reader that does not read (yet)
        if (give_up && give_up()) {
          st = Status(Code::kCancelled,
                      "cannot write " + name + ": stopped while its reader was not reading");
          break;
        }
        struct pollfd p {
          fd, POLLOUT, 0
        };
        ::poll(&p, 1, 100);
        continue;
      }
      st = OsError("cannot write", name);
      break;
    }
    done += static_cast<size_t>(n);
  }
  if (written != nullptr) *written = done;
  return st;
}

Result<int> OpenForAppend(const OutputTarget& target, int extra_flags,
                          std::chrono::milliseconds fifo_wait) {
  if (!target.in_place()) {
    int fd =
        ::open(target.path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | extra_flags, 0644);
    if (fd < 0) return OsError("cannot open", target.path);
    return fd;
  }
  if (target.kind == OutputKind::kDevice) {
    int fd = ::open(target.path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return OsError("cannot open", target.path);
    return fd;
  }
  // A FIFO: opening it for writing blocks until a reader opens it, so ask without blocking.
  auto give_up = std::chrono::steady_clock::now() + fifo_wait;
  for (;;) {
    int fd = ::open(target.path.c_str(), O_WRONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0) {
      SetNonBlocking(fd, false);
      return fd;
    }
    if (errno != ENXIO) return OsError("cannot open", target.path);
    if (std::chrono::steady_clock::now() >= give_up) {
      return Unavailable(target.path + " is a FIFO that no process reads: start its reader first");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

Status WriteOutputFile(const std::string& path, std::string_view content) {
  auto target = ResolveOutput(path);
  if (!target.ok()) return target.status();
  if (!target->in_place()) return ReplaceAtomically(target->path, content);
  auto fd = OpenForAppend(*target);
  if (!fd.ok()) return fd.status();
  Status st = WriteAll(*fd, content, path);
  if (::close(*fd) != 0 && st.ok()) st = OsError("cannot write", path);
  return st;
}

}  // namespace structure
