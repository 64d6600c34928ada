// A child process for end-to-end tests and benchmarks (`structure sim`, `serve`, `batch`, ...):
// stdin from a file, stdout piped (to read a server's "listening on HOST:PORT" line) or to a
// file, stderr to a file or inherited. Killed and reaped on destruction if still running, and
// killed by the kernel when the test process ends (PR_SET_PDEATHSIG).
#pragma once

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace structure::testing {

struct ChildIo {
  std::string stdin_path;   // empty: inherited
  std::string stdout_path;  // empty: a pipe the parent reads (WaitListening)
  std::string stderr_path;  // empty: inherited
};

class ChildProcess {
 public:
  // argv[0] is the executable's path. nullptr (with *error) when pipe or fork fails; a failed
  // exec shows as exit code 127.
  static std::unique_ptr<ChildProcess> Spawn(const std::vector<std::string>& argv,
                                             const ChildIo& io, std::string* error) {
    int out[2] = {-1, -1};
    if (io.stdout_path.empty() && pipe(out) != 0) {
      *error = "pipe failed";
      return nullptr;
    }
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
      *error = "fork failed";
      return nullptr;
    }
    if (pid == 0) {
      // Dies with the test process: a test that aborts (a sanitizer report) must not leave a
      // server holding the test runner's stderr, which would keep ctest waiting for its end.
      // Children are spawned from the test's main thread, whose end is the process's end.
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(126);
      Redirect(io.stdin_path, STDIN_FILENO, O_RDONLY);
      Redirect(io.stderr_path, STDERR_FILENO, O_WRONLY | O_CREAT | O_TRUNC);
      if (io.stdout_path.empty()) {
        dup2(out[1], STDOUT_FILENO);
        close(out[0]);
        close(out[1]);
      } else {
        Redirect(io.stdout_path, STDOUT_FILENO, O_WRONLY | O_CREAT | O_TRUNC);
      }
      std::vector<std::string> all = argv;
      std::vector<char*> args;
      for (auto& a : all) args.push_back(a.data());
      args.push_back(nullptr);
      execv(args[0], args.data());
      _exit(127);
    }
    if (out[1] >= 0) close(out[1]);
    return std::unique_ptr<ChildProcess>(new ChildProcess(pid, out[0]));
  }

  // Spawns a server that prints "listening on HOST:PORT" first and waits for that line.
  // `stderr_path`: where its stderr goes (empty: inherited).
  static std::unique_ptr<ChildProcess> StartListening(const std::vector<std::string>& argv,
                                                      std::chrono::seconds timeout,
                                                      std::string* error,
                                                      const std::string& stderr_path = "") {
    ChildIo io;
    io.stderr_path = stderr_path;
    auto child = Spawn(argv, io, error);
    if (!child) return nullptr;
    std::string line;
    auto deadline = std::chrono::steady_clock::now() + timeout;
    while (line.find('\n') == std::string::npos) {
      pollfd p{child->out_fd_, POLLIN, 0};
      if (std::chrono::steady_clock::now() > deadline || poll(&p, 1, 200) < 0) break;
      if (!(p.revents & (POLLIN | POLLHUP))) continue;
      char buf[256];
      ssize_t n = read(child->out_fd_, buf, sizeof(buf));
      if (n <= 0) break;
      line.append(buf, static_cast<size_t>(n));
    }
    size_t colon = line.rfind(':');
    if (line.rfind("listening on ", 0) != 0 || colon == std::string::npos) {
      *error = argv.size() > 1 ? "'" + argv[1] + "'" : "child";
      *error += " did not report its port: '" + line + "'";
      return nullptr;
    }
    child->port_ = std::stoi(line.substr(colon + 1));
    return child;
  }

  ~ChildProcess() {
    if (!reaped_) {
      kill(pid_, SIGKILL);
      Reap(0);
    }
    if (out_fd_ >= 0) close(out_fd_);
  }

  pid_t pid() const { return pid_; }  // stays set after the exit; use Signal() to signal it
  int port() const { return port_; }
  std::string base_url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // Signals the child unless it has been reaped (its pid may then belong to another process).
  void Signal(int sig) {
    if (!reaped_) kill(pid_, sig);
  }

  // True once the child has exited (does not block).
  bool Exited() { return reaped_ || Reap(WNOHANG); }
  // Waits for the exit: the exit code, or 128 + the signal that ended it.
  int Wait() {
    if (!reaped_) Reap(0);
    return code_;
  }
  // Waits up to `seconds`: the exit code (128 + signal), or -1 while it still runs.
  int WaitFor(int seconds) {
    for (int i = 0; i < seconds * 20; ++i) {
      if (Exited()) return code_;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return -1;
  }
  // SIGTERM, then SIGKILL after `grace`; afterwards cpu_seconds() holds its CPU time.
  void Stop(std::chrono::milliseconds grace = std::chrono::seconds(5)) {
    if (reaped_) return;
    kill(pid_, SIGTERM);
    auto deadline = std::chrono::steady_clock::now() + grace;
    while (!Exited() && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (!reaped_) {
      kill(pid_, SIGKILL);
      Reap(0);
    }
  }
  // User + system CPU seconds, known once the child has been reaped.
  double cpu_seconds() const { return cpu_seconds_; }

 private:
  ChildProcess(pid_t pid, int out_fd) : pid_(pid), out_fd_(out_fd) {}

  static void Redirect(const std::string& path, int target, int flags) {
    if (path.empty()) return;
    int fd = open(path.c_str(), flags, 0644);
    if (fd < 0) _exit(126);
    dup2(fd, target);
    close(fd);
  }

  bool Reap(int options) {
    int status = 0;
    rusage ru{};
    if (wait4(pid_, &status, options, &ru) != pid_) return false;
    reaped_ = true;
    code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    cpu_seconds_ = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
                   static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
    return true;
  }

  pid_t pid_;
  bool reaped_ = false;
  int out_fd_;
  int port_ = 0;
  int code_ = -1;
  double cpu_seconds_ = 0;
};

}  // namespace structure::testing
