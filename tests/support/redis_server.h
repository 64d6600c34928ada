// A private redis-server for tests: a free loopback port (redis has no --port 0, so a port is
// picked by binding one and releasing it), no persistence, a temporary directory. It can be
// stopped and started again on the same port (the shared-store outage tests), and is stopped
// on destruction.
#pragma once

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "tests/support/child_process.h"
#include "tests/support/local_server.h"

namespace structure::testing {

class RedisServer {
 public:
  // Starts a server (within 20 s); nullptr with *error otherwise (e.g. redis-server missing).
  // `extra` adds redis-server options (e.g. {"--requirepass", "pw"}).
  static std::unique_ptr<RedisServer> Start(std::string* error,
                                            std::vector<std::string> extra = {}) {
    std::string binary = FindExecutable("redis-server");
    if (binary.empty()) {
      *error = "redis-server not found on PATH (install the redis-server package)";
      return nullptr;
    }
    std::unique_ptr<RedisServer> s(new RedisServer(binary));
    s->extra_ = std::move(extra);
    for (int attempt = 0; attempt < 5; ++attempt) {
      s->port_ = FreeLoopbackPort();
      if (s->port_ > 0 && s->Run(error)) return s;
    }
    return nullptr;
  }

  ~RedisServer() {
    Stop();
    std::string rm = "rm -rf '" + dir_ + "'";
    int ignored = std::system(rm.c_str());  // best effort: a leftover temp dir fails nothing
    (void)ignored;
  }

  int port() const { return port_; }
  std::string url() const { return "redis://127.0.0.1:" + std::to_string(port_) + "/0"; }
  bool running() const { return child_ != nullptr; }

  void Stop() {
    if (!child_) return;
    child_->Stop(std::chrono::seconds(10));
    child_.reset();
  }
  // Starts it again on the same port (after Stop); false with *error when it does not answer.
  bool Restart(std::string* error) { return Run(error); }

 private:
  explicit RedisServer(std::string binary) : binary_(std::move(binary)) {
    dir_ = ::testing::TempDir() + "redis_" + std::to_string(getpid()) + "_" +
           std::to_string(reinterpret_cast<uintptr_t>(this));
    mkdir(dir_.c_str(), 0755);
  }

 public:
  // Sends one inline command ("KEYS structure:*") and returns the raw reply ("" on failure).
  std::string Query(const std::string& inline_command) const {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return "";
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port_));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    timeval tv{5, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    std::string out;
    std::string line = inline_command + "\r\n";
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
        write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size())) {
      char buf[4096];
      ssize_t n = read(fd, buf, sizeof(buf));
      if (n > 0) out.assign(buf, static_cast<size_t>(n));
    }
    close(fd);
    return out;
  }

 private:
  // True once the server answers PING on the port.
  bool Answers() const {
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) return false;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<uint16_t>(port_));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    bool ok = false;
    timeval tv{1, 0};
    // With --requirepass PING answers -NOAUTH: the server is up all the same.
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
    if (connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)) == 0 &&
        write(fd, "PING\r\n", 6) == 6) {
      char buf[16] = {};
      ok = read(fd, buf, sizeof(buf) - 1) > 0 &&
           (std::string(buf).rfind("+PONG", 0) == 0 || std::string(buf).rfind("-NOAUTH", 0) == 0);
    }
    close(fd);
    return ok;
  }

  bool Run(std::string* error) {
    std::vector<std::string> argv = {binary_,  "--port",       std::to_string(port_),
                                     "--bind", "127.0.0.1",    "--save",
                                     "",       "--appendonly", "no",
                                     "--dir",  dir_,           "--daemonize",
                                     "no"};
    argv.insert(argv.end(), extra_.begin(), extra_.end());
    child_ = ChildProcess::Spawn(argv, ChildIo{"", dir_ + "/log", dir_ + "/stderr"}, error);
    if (!child_) return false;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      if (child_->Exited()) break;  // e.g. the port was taken meanwhile
      if (Answers()) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    *error =
        "redis-server on port " + std::to_string(port_) + " did not answer (see " + dir_ + "/log)";
    child_.reset();
    return false;
  }

  std::string binary_;
  std::vector<std::string> extra_;
  std::string dir_;
  int port_ = 0;
  std::unique_ptr<ChildProcess> child_;
};

}  // namespace structure::testing
