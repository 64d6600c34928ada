#include "actors/check_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

extern char** environ;

namespace structure::actors {
namespace {

// The kernel's limit for one environment string (MAX_ARG_STRLEN), less the variable's name.
constexpr size_t kMaxEnvValue = 128 * 1024 - 64;

Status StartError(const std::string& what) {
  return Status(Code::kFailedPrecondition, "check command could not start: " + what);
}

// Replaces every byte that does not start a valid UTF-8 sequence with U+FFFD, so the lines can
// go into a JSON request.
std::string ValidUtf8(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    size_t n = c < 0x80                   ? 1
               : (c >= 0xC2 && c <= 0xDF) ? 2
               : (c >= 0xE0 && c <= 0xEF) ? 3
               : (c >= 0xF0 && c <= 0xF4) ? 4
                                          : 0;
    bool ok = n > 0 && i + n <= s.size();
    for (size_t k = 1; ok && k < n; ++k) ok = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    if (ok && n == 3) {
      unsigned char d = static_cast<unsigned char>(s[i + 1]);
      ok = !(c == 0xE0 && d < 0xA0) && !(c == 0xED && d >= 0xA0);  // overlong, surrogate
    }
    if (ok && n == 4) {
      unsigned char d = static_cast<unsigned char>(s[i + 1]);
      ok = !(c == 0xF0 && d < 0x90) && !(c == 0xF4 && d >= 0x90);
    }
    if (ok && c != 0) {
      out.append(s, i, n);
      i += n;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

std::string Trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return "";
  size_t e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::string FirstLine(const std::string& text) {
  std::string line = Trim(text.substr(0, text.find('\n')));
  if (line.size() > 200) line = line.substr(0, 200) + "...";
  return ValidUtf8(line);
}

}  // namespace

Result<CheckChild> SpawnCheck(const std::string& command, const std::string& prompt) {
  CheckChild child;
  int in[2] = {-1, -1};
  int out[2] = {-1, -1};
  int err[2] = {-1, -1};
  auto close_all = [&] {
    for (int fd : {in[0], in[1], out[0], out[1], err[0], err[1]}) {
      if (fd >= 0) close(fd);
    }
  };
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, in) != 0 || pipe2(out, O_CLOEXEC) != 0 ||
      pipe2(err, O_CLOEXEC) != 0) {
    std::string what = std::strerror(errno);
    close_all();
    return StartError(what);
  }

  std::vector<std::string> env;
  for (char** e = environ; e != nullptr && *e != nullptr; ++e) {
    std::string_view v(*e);
    if (v.rfind("STRUCTURE_PROMPT=", 0) == 0 || v.rfind("STRUCTURE_PROMPT_FILE=", 0) == 0) continue;
    env.emplace_back(v);
  }
  if (prompt.size() <= kMaxEnvValue && prompt.find('\0') == std::string::npos) {
    env.push_back("STRUCTURE_PROMPT=" + prompt);
  } else {
    const char* tmp = std::getenv("TMPDIR");
    std::string path =
        std::string(tmp != nullptr && *tmp ? tmp : "/tmp") + "/structure-prompt-XXXXXX";
    int fd = mkostemp(path.data(), O_CLOEXEC);
    bool written = fd >= 0;
    for (size_t off = 0; written && off < prompt.size();) {
      ssize_t n = write(fd, prompt.data() + off, prompt.size() - off);
      if (n < 0 && errno == EINTR) continue;
      written = n > 0;
      if (written) off += static_cast<size_t>(n);
    }
    if (fd >= 0) close(fd);
    if (!written) {
      std::string what = "cannot write the prompt file " + path + ": " + std::strerror(errno);
      if (fd >= 0) unlink(path.c_str());
      close_all();
      return StartError(what);
    }
    child.prompt_file = path;
    env.push_back("STRUCTURE_PROMPT_FILE=" + path);
  }
  std::vector<char*> envp;
  for (std::string& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  std::string cmd = command;
  char sh[] = "/bin/sh";
  char dash_c[] = "-c";
  char* argv[] = {sh, dash_c, cmd.data(), nullptr};

  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, in[1], 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, err[1], 2);
  posix_spawn_file_actions_addclosefrom_np(&fa, 3);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none;
  sigset_t all;
  sigemptyset(&none);
  sigfillset(&all);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setpgroup(&attr, 0);  // its own group: a timeout kills what it started too
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  int rc = posix_spawn(&child.pid, sh, &fa, &attr, argv, envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(in[1]);
  close(out[1]);
  close(err[1]);
  in[1] = out[1] = err[1] = -1;
  if (rc != 0) {
    close_all();
    RemovePromptFile(child);
    return StartError(std::strerror(rc));
  }
  child.in = in[0];
  child.out = out[0];
  child.err = err[0];
  for (int fd : {child.in, child.out, child.err})
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
#ifdef SYS_pidfd_open
  child.pidfd = static_cast<int>(syscall(SYS_pidfd_open, child.pid, 0));
  if (child.pidfd >= 0) fcntl(child.pidfd, F_SETFD, FD_CLOEXEC);
#endif
  return child;
}

CheckVerdict VerdictOf(int status, bool timed_out, int timeout_ms, const std::string& out,
                       const std::string& err) {
  if (timed_out) {
    return Status(Code::kFailedPrecondition, "check command timed out after " +
                                                 std::to_string(timeout_ms) + " ms and was killed");
  }
  std::string detail = FirstLine(err);
  detail = detail.empty() ? "" : ": " + detail;
  if (WIFSIGNALED(status)) {
    int sig = WTERMSIG(status);
    const char* name = sigabbrev_np(sig);
    return Status(Code::kFailedPrecondition,
                  "check command crashed (signal " + std::to_string(sig) +
                      (name != nullptr ? std::string(", SIG") + name : "") + ")" + detail);
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return Status(Code::kFailedPrecondition, "check command exited with status " +
                                                 std::to_string(WEXITSTATUS(status)) + detail);
  }
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= out.size()) {
    size_t eol = out.find('\n', start);
    std::string line =
        Trim(out.substr(start, eol == std::string::npos ? std::string::npos : eol - start));
    if (!line.empty()) lines.push_back(ValidUtf8(line));
    if (eol == std::string::npos) break;
    start = eol + 1;
  }
  return lines;
}

void RemovePromptFile(CheckChild& child) {
  if (!child.prompt_file.empty()) unlink(child.prompt_file.c_str());
  child.prompt_file.clear();
}

}  // namespace structure::actors
