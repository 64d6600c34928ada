#include "base/read_file.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "base/output_file.h"

namespace structure {
namespace {

bool SameFile(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// Waits until the FIFO `fd` (opened O_NONBLOCK) has a writer, has data, or had a writer that
// closed it; then makes it blocking. A byte read while looking goes to `head`.
Status WaitForWriter(int fd, const std::string& path, std::chrono::milliseconds fifo_wait,
                     std::string& head) {
  auto give_up = std::chrono::steady_clock::now() + fifo_wait;
  for (;;) {
    struct pollfd p {
      fd, POLLIN, 0
    };
    int ready = ::poll(&p, 1, 20);
    if (ready < 0 && errno != EINTR) return OsError("cannot read", path);
    if (ready > 0) break;  // data, or a writer that came and closed: read it as it is
    // Nothing to read and no hang-up: a writer that has not written yet, or no writer at all.
    char c;
    ssize_t n = ::read(fd, &c, 1);
    if (n == 1) {
      head.assign(1, c);
      break;
    }
    if (n < 0 && errno == EAGAIN) break;  // a writer is there: wait for it as for stdin
    if (n < 0 && errno != EINTR) return OsError("cannot read", path);
    if (std::chrono::steady_clock::now() >= give_up) {
      return Unavailable(path + " is a FIFO that no process writes: start its writer first");
    }
  }
  SetNonBlocking(fd, false);
  return Status::Ok();
}

// Why `path` cannot be opened: the OS's reason, and for a link whose target is missing (or a
// loop) what it points to, which the reason alone does not say.
Status CannotOpen(const std::string& path, int err) {
  std::string why = "cannot open " + path + ": " + std::strerror(err);
  struct stat link {};
  if ((err == ENOENT || err == ELOOP) && ::lstat(path.c_str(), &link) == 0 &&
      S_ISLNK(link.st_mode)) {
    char target[4096];
    ssize_t n = ::readlink(path.c_str(), target, sizeof target);
    if (n > 0) {
      why += err == ENOENT ? " (a link to " + std::string(target, static_cast<size_t>(n)) +
                                 ", which does not exist)"
                           : " (a link to " + std::string(target, static_cast<size_t>(n)) + ")";
    }
  }
  return NotFound(why);
}

}  // namespace

Result<OpenedInput> OpenForReading(const std::string& path, std::chrono::milliseconds fifo_wait) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return CannotOpen(path, errno);
  if (S_ISDIR(st.st_mode) || S_ISSOCK(st.st_mode)) {
    return InvalidArgument(path + " is " + std::string(FileTypeName(st.st_mode)) + ", not a file");
  }
  struct stat in {};
  if (S_ISFIFO(st.st_mode) && ::fstat(STDIN_FILENO, &in) == 0 && SameFile(st, in)) {
    int fd = ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);  // our stdin: its writer is the shell's
    if (fd < 0) return OsError("cannot read", path);
    return OpenedInput{fd, ""};
  }
  int flags = O_RDONLY | O_CLOEXEC | (S_ISFIFO(st.st_mode) ? O_NONBLOCK : 0);
  int fd = ::open(path.c_str(), flags);
  if (fd < 0) return NotFound("cannot open " + path + ": " + std::strerror(errno));
  OpenedInput opened{fd, ""};
  if (S_ISFIFO(st.st_mode)) {
    Status waited = WaitForWriter(fd, path, fifo_wait, opened.head);
    if (!waited.ok()) {
      ::close(fd);
      return waited;
    }
  }
  return opened;
}

Result<std::string> ReadFile(const std::string& path, size_t max_bytes, std::string_view limit_name,
                             std::chrono::milliseconds fifo_wait) {
  auto opened = OpenForReading(path, fifo_wait);
  if (!opened.ok()) return opened.status();
  std::string text = std::move(opened->head);
  char chunk[65536];
  Status st;
  for (;;) {
    ssize_t n = ::read(opened->fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      st = OsError("cannot read", path);
      break;
    }
    if (n == 0) break;
    if (static_cast<size_t>(n) > max_bytes - std::min(max_bytes, text.size())) {
      st = InvalidArgument(path + ": larger than " + std::to_string(max_bytes) + " bytes (" +
                           std::string(limit_name) + "): stopped reading there");
      break;
    }
    text.append(chunk, static_cast<size_t>(n));
  }
  ::close(opened->fd);
  if (!st.ok()) return st;
  return text;
}

}  // namespace structure
