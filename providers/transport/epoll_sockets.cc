#include "providers/transport/epoll_sockets.h"

#include <sys/epoll.h>

#include <cerrno>

namespace structure::providers {

EpollSockets::Entry& EpollSockets::At(int fd) {
  size_t i = static_cast<size_t>(fd);
  if (i >= fds_.size()) fds_.resize(std::max(i + 1, fds_.size() * 2));
  return fds_[i];
}

bool EpollSockets::Ctl(int op, int fd, uint32_t events, uint32_t owner) {
  epoll_event ev{};
  ev.events = events;
  ev.data.u64 = Key(fd, owner);
  ++syscalls_;
  return epoll_ctl(epoll_fd_, op, fd, op == EPOLL_CTL_DEL ? nullptr : &ev) == 0;
}

void EpollSockets::Opened(int fd) {
  if (fd < 0) return;
  At(fd) = Entry{0, 0, false, false, true};
}

void EpollSockets::Closed(int fd) {
  // Closing the descriptor removes its registration in the kernel.
  if (fd >= 0) At(fd) = Entry{};
}

void EpollSockets::Want(int fd, uint32_t events, uint32_t owner) {
  if (fd < 0) return;
  Entry& e = At(fd);
  if (e.registered && e.known && e.events == events && e.owner == owner) {
    e.wanted = true;
    return;
  }
  bool ok;
  if (e.registered) {
    ok = Ctl(EPOLL_CTL_MOD, fd, events, owner) ||
         (errno == ENOENT && Ctl(EPOLL_CTL_ADD, fd, events, owner));
  } else {
    ok = Ctl(EPOLL_CTL_ADD, fd, events, owner) ||
         (errno == EEXIST && Ctl(EPOLL_CTL_MOD, fd, events, owner));
  }
  e.registered = ok;
  e.wanted = ok;
  e.events = events;
  e.owner = owner;
}

void EpollSockets::Unwant(int fd) {
  if (fd < 0) return;
  Entry& e = At(fd);
  e.wanted = false;
  if (e.known || !e.registered) return;
  Ctl(EPOLL_CTL_DEL, fd, 0, 0);
  e.registered = false;
}

bool EpollSockets::TakeEvent(int fd) {
  if (fd < 0) return false;
  Entry& e = At(fd);
  if (e.wanted) return true;
  // An idle connection woke up (the server closed it, most likely): stop watching it; curl
  // finds it dead when it next looks at it.
  if (e.registered) Ctl(EPOLL_CTL_DEL, fd, 0, 0);
  e.registered = false;
  return false;
}

}  // namespace structure::providers
