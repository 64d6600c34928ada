// Runs `structure batch` as a child process (for the kill/resume and SIGINT tests): stdout and
// stderr go to files, the caller may signal it and waits for its exit status.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <string>
#include <vector>

namespace structure::testing {

class ChildProcess {
 public:
  ChildProcess(const std::string& binary, const std::vector<std::string>& args,
               const std::string& stdout_path, const std::string& stderr_path,
               const std::string& stdin_path = "") {
    pid_ = fork();
    if (pid_ == 0) {
      if (!stdin_path.empty()) {
        int in = open(stdin_path.c_str(), O_RDONLY);
        dup2(in, STDIN_FILENO);
      }
      int out = open(stdout_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int err = open(stderr_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      dup2(out, STDOUT_FILENO);
      dup2(err, STDERR_FILENO);
      std::vector<std::string> all = {binary};
      all.insert(all.end(), args.begin(), args.end());
      std::vector<char*> argv;
      for (auto& a : all) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(binary.c_str(), argv.data());
      _exit(127);
    }
  }
  ~ChildProcess() {
    if (pid_ > 0 && !exited_) {
      kill(pid_, SIGKILL);
      Wait();
    }
  }
  pid_t pid() const { return pid_; }
  // True once the child has exited (non-blocking).
  bool Exited() {
    if (exited_) return true;
    if (waitpid(pid_, &status_, WNOHANG) == pid_) exited_ = true;
    return exited_;
  }
  // Waits for exit; the exit code, or 128 + signal.
  int Wait() {
    if (!exited_) {
      waitpid(pid_, &status_, 0);
      exited_ = true;
    }
    return WIFEXITED(status_) ? WEXITSTATUS(status_) : 128 + WTERMSIG(status_);
  }

 private:
  pid_t pid_ = -1;
  int status_ = 0;
  bool exited_ = false;
};

}  // namespace structure::testing
