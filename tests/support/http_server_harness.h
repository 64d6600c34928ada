// An HttpServer running on its own thread for the length of a test, and a raw loopback client
// socket: what the HTTP server tests share.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>

#include <chrono>
#include <memory>
#include <thread>

#include "http/http_server.h"

namespace structure::http::testing {

class Running {
 public:
  explicit Running(Handler handler, ServerOptions options = {}) {
    options.stop_grace = std::chrono::milliseconds(500);
    auto s = HttpServer::Create(options, std::move(handler));
    EXPECT_TRUE(s.ok()) << s.status().ToString();
    server_ = std::move(*s);
    thread_ = std::thread([this] { server_->Run(); });
  }
  ~Running() {
    server_->Stop();
    thread_.join();
  }
  HttpServer& server() { return *server_; }

 private:
  std::unique_ptr<HttpServer> server_;
  std::thread thread_;
};

// A connected loopback socket to `port`; with `recv_timeout_s` > 0 a read gives up after that.
inline int Connect(uint16_t port, int recv_timeout_s = 0) {
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(port);
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  EXPECT_EQ(connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  if (recv_timeout_s > 0) {
    timeval tv{recv_timeout_s, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }
  return fd;
}

}  // namespace structure::http::testing
