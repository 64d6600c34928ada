// Runs `structure sim` as a child process on a free loopback port for round-trip tests and
// benchmarks; stops it (SIGTERM, then SIGKILL) on destruction and reports its CPU time.
#pragma once

#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace structure::testing {

class SimProcess {
 public:
  // Starts `binary sim --port 0 args...`; nullptr (with *error set) on failure.
  static std::unique_ptr<SimProcess> Start(const std::string& binary,
                                           const std::vector<std::string>& args,
                                           std::string* error) {
    int out[2];
    if (pipe(out) != 0) {
      *error = "pipe failed";
      return nullptr;
    }
    pid_t pid = fork();
    if (pid < 0) {
      *error = "fork failed";
      return nullptr;
    }
    if (pid == 0) {
      dup2(out[1], STDOUT_FILENO);
      close(out[0]);
      close(out[1]);
      std::vector<std::string> all = {binary, "sim", "--port", "0"};
      all.insert(all.end(), args.begin(), args.end());
      std::vector<char*> argv;
      for (auto& a : all) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(binary.c_str(), argv.data());
      _exit(127);
    }
    close(out[1]);
    auto sim = std::unique_ptr<SimProcess>(new SimProcess(pid, out[0]));
    std::string line;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (line.find('\n') == std::string::npos) {
      pollfd p{out[0], POLLIN, 0};
      if (std::chrono::steady_clock::now() > deadline || poll(&p, 1, 200) < 0) break;
      if (!(p.revents & (POLLIN | POLLHUP))) continue;
      char buf[256];
      ssize_t n = read(out[0], buf, sizeof(buf));
      if (n <= 0) break;
      line.append(buf, static_cast<size_t>(n));
    }
    size_t colon = line.rfind(':');
    if (line.rfind("listening on ", 0) != 0 || colon == std::string::npos) {
      *error = "sim did not report its port: '" + line + "'";
      return nullptr;
    }
    sim->port_ = std::stoi(line.substr(colon + 1));
    return sim;
  }

  ~SimProcess() { Stop(); }

  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  pid_t pid() const { return pid_; }

  // Stops the child; afterwards cpu_seconds() holds its user+system CPU time.
  void Stop() {
    if (pid_ <= 0) return;
    kill(pid_, SIGTERM);
    int status = 0;
    rusage ru{};
    for (int i = 0; i < 100; ++i) {
      if (wait4(pid_, &status, WNOHANG, &ru) == pid_) {
        pid_ = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      wait4(pid_, &status, 0, &ru);
      pid_ = -1;
    }
    cpu_seconds_ = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                   static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
  }
  double cpu_seconds() const { return cpu_seconds_; }

 private:
  SimProcess(pid_t pid, int fd) : pid_(pid), fd_(fd) {}
  pid_t pid_;
  int fd_;
  int port_ = 0;
  double cpu_seconds_ = 0;
};

}  // namespace structure::testing
