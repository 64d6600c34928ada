// A loopback TCP server that is not Redis (or anything else): it answers every connection with
// one fixed reply, for tests of clients that must not take any listener for their server.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>

namespace structure::testing {

// A listening socket on a free loopback port (its port in *port); -1 when one cannot be made.
inline int LoopbackListener(uint16_t* port) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0 || listen(fd, 16) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    if (fd >= 0) close(fd);
    return -1;
  }
  *port = ntohs(a.sin_port);
  return fd;
}

// A loopback listener that answers every connection with `reply` (may be empty: accept, read,
// close) until it is destroyed.
class FakeTcpServer {
 public:
  explicit FakeTcpServer(std::string reply) : reply_(std::move(reply)) {
    uint16_t port = 0;
    fd_ = LoopbackListener(&port);
    EXPECT_GE(fd_, 0);
    port_ = port;
    thread_ = std::thread([this] {
      for (;;) {
        int c = accept(fd_, nullptr, nullptr);
        if (c < 0) return;  // shutdown() below
        char buf[512];
        if (read(c, buf, sizeof(buf)) > 0 && !reply_.empty()) {
          ssize_t ignored = write(c, reply_.data(), reply_.size());
          (void)ignored;
        }
        ++connections_;
        close(c);
      }
    });
  }
  ~FakeTcpServer() {
    shutdown(fd_, SHUT_RDWR);
    thread_.join();
    close(fd_);
  }
  int port() const { return port_; }
  int connections() const { return connections_.load(); }

 private:
  std::string reply_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<int> connections_{0};
  std::thread thread_;
};

}  // namespace structure::testing
