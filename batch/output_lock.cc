#include "batch/output_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

namespace structure::batch {

int LockHolder(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return 0;
  // Lines like "1: FLOCK  ADVISORY  WRITE 4242 08:01:1234567 0 EOF" (device in hex, inode).
  std::ifstream locks("/proc/locks");
  std::string line;
  while (std::getline(locks, line)) {
    std::istringstream in(line);
    std::string id, type, mode, access, pid, file;
    if (!(in >> id >> type)) continue;
    if (type == "->") in >> type;  // a waiter's line
    if (!(in >> mode >> access >> pid >> file) || type != "FLOCK") continue;
    unsigned maj = 0, min = 0;
    unsigned long ino = 0;
    if (std::sscanf(file.c_str(), "%x:%x:%lu", &maj, &min, &ino) != 3) continue;
    if (maj == major(st.st_dev) && min == minor(st.st_dev) && ino == st.st_ino) {
      int p = std::atoi(pid.c_str());
      if (p > 0 && p != ::getpid()) return p;
    }
  }
  return 0;
}

Result<int> OpenLocked(const std::string& path, int extra_flags) {
  for (int attempt = 0; attempt < 8; ++attempt) {
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | extra_flags, 0644);
    if (fd < 0) return Unavailable("cannot open " + path + ": " + std::strerror(errno));
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      int err = errno;
      std::string holder;
      if (err == EWOULDBLOCK) {
        int pid = LockHolder(fd);
        holder = pid > 0 ? " (process " + std::to_string(pid) + ")" : "";
      }
      ::close(fd);
      if (err != EWOULDBLOCK) return Unavailable("cannot lock " + path + ": " + std::strerror(err));
      return Status(Code::kFailedPrecondition,
                    path + " is in use by another structure batch" + holder +
                        ": wait for it to finish (or stop it), then rerun with --resume");
    }
    // Locked; but a resume of another job may have renamed a new file over `path` meanwhile, and
    // then this lock guards nothing. Try again on the file that is there now.
    struct stat by_fd {
    }, by_path{};
    if (::fstat(fd, &by_fd) == 0 && ::stat(path.c_str(), &by_path) == 0 &&
        by_fd.st_dev == by_path.st_dev && by_fd.st_ino == by_path.st_ino) {
      return fd;
    }
    ::close(fd);
  }
  return Unavailable("cannot lock " + path + ": it keeps being replaced");
}

}  // namespace structure::batch
