#include "tests/bad_inputs/run_process.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

namespace structure::testing {
namespace {

void Redirect(const std::string& path, int target, int flags) {
  int fd = open(path.c_str(), flags, 0644);
  if (fd < 0) _exit(126);
  dup2(fd, target);
  close(fd);
}

}  // namespace

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

ProcessResult RunProcess(const ProcessSpec& spec) {
  ProcessResult r;
  const std::string in_path = spec.scratch + "/stdin";
  const std::string out_path = spec.scratch + "/stdout";
  const std::string err_path = spec.scratch + "/stderr";
  {
    std::ofstream in(in_path, std::ios::binary | std::ios::trunc);
    in << spec.input;
    if (!in) {
      r.error = "cannot write " + in_path;
      return r;
    }
  }
  std::vector<std::string> argv = spec.argv;
  std::vector<std::string> env = spec.env;
  std::vector<char*> args, envp;
  for (auto& a : argv) args.push_back(a.data());
  args.push_back(nullptr);
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);

  pid_t pid = fork();
  if (pid < 0) {
    r.error = "fork failed";
    return r;
  }
  if (pid == 0) {
    setpgid(0, 0);
    if (chdir(spec.cwd.c_str()) != 0) _exit(125);
    Redirect(in_path, STDIN_FILENO, O_RDONLY);
    Redirect(out_path, STDOUT_FILENO, O_WRONLY | O_CREAT | O_TRUNC);
    Redirect(err_path, STDERR_FILENO, O_WRONLY | O_CREAT | O_TRUNC);
    execve(args[0], args.data(), envp.data());
    _exit(127);
  }
  setpgid(pid, pid);  // also here, so the group exists before we might signal it
  auto deadline = std::chrono::steady_clock::now() + spec.timeout;
  int status = 0;
  while (true) {
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) break;
    if (std::chrono::steady_clock::now() > deadline) {
      r.timed_out = true;
      kill(-pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  kill(-pid, SIGKILL);  // whatever the command left running in the background
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  r.out = ReadAll(out_path);
  r.err = ReadAll(err_path);
  return r;
}

}  // namespace structure::testing
