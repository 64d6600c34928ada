// Runs `structure <command> ...` as a child process that prints "listening on HOST:PORT" first
// (serve, sim), for end-to-end tests; kills it on destruction unless it was waited for.
#pragma once

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace structure::testing {

class ListeningChild {
 public:
  // nullptr (with *error) when it cannot start or does not report its port within 60 s.
  static std::unique_ptr<ListeningChild> Start(const std::vector<std::string>& argv,
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
      std::vector<std::string> all = argv;
      std::vector<char*> args;
      for (auto& a : all) args.push_back(a.data());
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    close(out[1]);
    auto child = std::unique_ptr<ListeningChild>(new ListeningChild(pid, out[0]));
    std::string line;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
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
      *error = "child did not report its port: '" + line + "'";
      return nullptr;
    }
    child->port_ = std::stoi(line.substr(colon + 1));
    return child;
  }

  ~ListeningChild() {
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
    if (fd_ >= 0) close(fd_);
  }

  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  pid_t pid() const { return pid_; }

  void Signal(int sig) { kill(pid_, sig); }

  // Waits up to `seconds` for the child to exit; its exit code, or -1 (killed by a signal or
  // still running, then killed).
  int Wait(int seconds) {
    int status = 0;
    for (int i = 0; i < seconds * 20; ++i) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return -1;
  }

 private:
  ListeningChild(pid_t pid, int fd) : pid_(pid), fd_(fd) {}
  pid_t pid_;
  int fd_;
  int port_ = 0;
};

}  // namespace structure::testing
