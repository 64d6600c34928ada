#include "providers/transport/epoll_sockets.h"

#include <gtest/gtest.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace structure::providers {
namespace {

class EpollSocketsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ep_ = epoll_create1(EPOLL_CLOEXEC);
    ASSERT_GE(ep_, 0);
    ASSERT_EQ(socketpair(AF_UNIX, SOCK_STREAM, 0, pair_), 0);
  }
  void TearDown() override {
    close(ep_);
    if (pair_[0] >= 0) close(pair_[0]);
    close(pair_[1]);
  }
  // The registrations epoll reports as ready within 0 ms.
  std::vector<epoll_event> Ready() {
    epoll_event evs[8];
    int n = epoll_wait(ep_, evs, 8, 0);
    return std::vector<epoll_event>(evs, evs + std::max(n, 0));
  }
  int ep_ = -1;
  int pair_[2] = {-1, -1};
};

TEST_F(EpollSocketsTest, KnownSocketKeepsItsRegistrationWhileIdle) {
  EpollSockets s(ep_);
  int fd = pair_[0];
  s.Opened(fd);
  s.Want(fd, EPOLLIN, 3);
  EXPECT_EQ(s.syscalls(), 1u);  // ADD
  s.Unwant(fd);
  s.Want(fd, EPOLLIN, 3);
  EXPECT_EQ(s.syscalls(), 1u);  // still registered with the same events: no call
  s.Want(fd, EPOLLOUT, 3);
  EXPECT_EQ(s.syscalls(), 2u);  // MOD
  s.Want(fd, EPOLLOUT, 4);
  EXPECT_EQ(s.syscalls(), 3u);  // another owner: MOD
  auto ready = Ready();
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(EpollSockets::FdOf(ready[0].data.u64), fd);
  EXPECT_EQ(EpollSockets::OwnerOf(ready[0].data.u64), 4u);
  EXPECT_TRUE(s.TakeEvent(fd));
}

TEST_F(EpollSocketsTest, EventOnAnIdleSocketDropsTheRegistration) {
  EpollSockets s(ep_);
  int fd = pair_[0];
  s.Opened(fd);
  s.Want(fd, EPOLLIN, 0);
  s.Unwant(fd);
  ASSERT_EQ(write(pair_[1], "x", 1), 1);  // the peer speaks (or closes) while idle
  ASSERT_EQ(Ready().size(), 1u);
  EXPECT_FALSE(s.TakeEvent(fd));
  EXPECT_TRUE(Ready().empty());  // deleted: no busy loop on a level-triggered event
  s.Want(fd, EPOLLIN, 0);        // a later transfer registers it again
  EXPECT_EQ(Ready().size(), 1u);
}

TEST_F(EpollSocketsTest, ClosedDescriptorIsRegisteredAfreshWhenItsNumberComesBack) {
  EpollSockets s(ep_);
  int fd = pair_[0];
  s.Opened(fd);
  s.Want(fd, EPOLLIN, 0);
  s.Unwant(fd);
  s.Closed(fd);
  close(fd);
  int again = dup(pair_[1]);  // most likely the same number
  ASSERT_GE(again, 0);
  s.Opened(again);
  s.Want(again, EPOLLOUT, 0);
  auto ready = Ready();
  ASSERT_EQ(ready.size(), 1u);
  EXPECT_EQ(EpollSockets::FdOf(ready[0].data.u64), again);
  pair_[0] = again;
}

TEST_F(EpollSocketsTest, UnknownSocketIsDeletedEagerly) {
  EpollSockets s(ep_);
  int fd = pair_[0];  // not announced through Opened (a resolver's socket)
  s.Want(fd, EPOLLOUT, 0);
  EXPECT_EQ(Ready().size(), 1u);
  s.Unwant(fd);
  EXPECT_TRUE(Ready().empty());
  s.Want(fd, EPOLLOUT, 0);
  EXPECT_EQ(s.syscalls(), 3u);  // ADD, DEL, ADD
  EXPECT_EQ(Ready().size(), 1u);
}

}  // namespace
}  // namespace structure::providers
