// The epoll registrations of the curl transport's sockets, kept with as few epoll_ctl calls as
// the events allow. Sockets curl opens for connections are known from open to close (curl's
// open/close socket callbacks), so when curl stops watching one (an idle keep-alive connection)
// its registration is kept instead of deleted, and the next transfer on that connection that
// wants the same events costs no system call. Other sockets (the resolver's) are registered
// and deleted eagerly, since their descriptors may be closed behind our back.
#pragma once

#include <cstdint>
#include <vector>

namespace structure::providers {

class EpollSockets {
 public:
  explicit EpollSockets(int epoll_fd) : epoll_fd_(epoll_fd) {}

  // The epoll data word: the descriptor and the owner (a multi handle's index).
  static uint64_t Key(int fd, uint32_t owner) {
    return (static_cast<uint64_t>(owner) << 32) | static_cast<uint32_t>(fd);
  }
  static int FdOf(uint64_t key) { return static_cast<int>(key & 0xffffffffu); }
  static uint32_t OwnerOf(uint64_t key) { return static_cast<uint32_t>(key >> 32); }

  // A connection socket was just created (so no registration can exist for it) / is closing.
  void Opened(int fd);
  void Closed(int fd);

  // curl wants `events` (EPOLLIN / EPOLLOUT bits) on fd for `owner`.
  void Want(int fd, uint32_t events, uint32_t owner);
  // curl no longer watches fd.
  void Unwant(int fd);
  // An event arrived for fd: true if curl watches it; otherwise the stale registration is
  // dropped and the event must be ignored.
  bool TakeEvent(int fd);

  // epoll_ctl calls made so far (for tests and measurements).
  uint64_t syscalls() const { return syscalls_; }

 private:
  struct Entry {
    uint32_t events = 0;
    uint32_t owner = 0;
    bool registered = false;  // epoll holds a registration with `events` and `owner`
    bool wanted = false;      // curl watches it
    bool known = false;       // opened through our callback and not closed yet
  };
  Entry& At(int fd);
  bool Ctl(int op, int fd, uint32_t events, uint32_t owner);

  int epoll_fd_;
  std::vector<Entry> fds_;
  uint64_t syscalls_ = 0;
};

}  // namespace structure::providers
