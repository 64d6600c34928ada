// A forward proxy for tests: tinyproxy (Debian package) on a free loopback port, run in the
// foreground as the current user, with its config, pid file and log in a temporary directory
// (removed on destruction). The log records each CONNECT tunnel it opens
// ("CONNECT localhost:PORT HTTP/1.1").
#pragma once

#include <chrono>
#include <fstream>
#include <memory>
#include <string>
#include <thread>

#include "tests/support/child_process.h"
#include "tests/support/tls_rig.h"

namespace structure::testing {

class TinyProxy {
 public:
  // nullptr with *error when tinyproxy is missing or does not listen within 20 s.
  static std::unique_ptr<TinyProxy> Start(std::string* error) {
    std::string binary = FindExecutable("tinyproxy");
    if (binary.empty()) {
      *error = "tinyproxy not found (install the Debian package tinyproxy)";
      return nullptr;
    }
    std::unique_ptr<TinyProxy> p(new TinyProxy(binary));
    if (p->dir_.empty()) {
      *error = "cannot create a temporary directory";
      return nullptr;
    }
    for (int attempt = 0; attempt < 5; ++attempt) {
      if (p->Run(error)) return p;
    }
    return nullptr;
  }

  ~TinyProxy() {
    if (child_) child_->Stop(std::chrono::seconds(5));
    Shell("rm -rf '" + dir_ + "'");
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::string Log() const {
    std::ifstream f(dir_ + "/tinyproxy.log");
    return std::string((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  }

 private:
  explicit TinyProxy(std::string binary)
      : binary_(std::move(binary)), dir_(MakeTempDir("structure-tinyproxy")) {}

  bool Run(std::string* error) {
    port_ = FreeLoopbackPort();
    if (port_ == 0) return false;
    std::ofstream(dir_ + "/tinyproxy.conf")
        << "Port " << port_ << "\nListen 127.0.0.1\nTimeout 30\n"
        << "LogFile \"" << dir_ << "/tinyproxy.log\"\nLogLevel Connect\n"
        << "PidFile \"" << dir_ << "/tinyproxy.pid\"\nMaxClients 200\nAllow 127.0.0.1\n";
    child_ = ChildProcess::Spawn({binary_, "-d", "-c", dir_ + "/tinyproxy.conf"},
                                 ChildIo{"", dir_ + "/stdout", dir_ + "/stderr"}, error);
    if (!child_) return false;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (std::chrono::steady_clock::now() < deadline) {
      if (child_->Exited()) break;
      if (PortAnswers(port_)) return true;
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    *error = "tinyproxy did not start (see " + dir_ + "/stderr)";
    child_.reset();
    return false;
  }

  std::string binary_;
  std::string dir_;
  int port_ = 0;
  std::unique_ptr<ChildProcess> child_;
};

}  // namespace structure::testing
