// Runs a shell command line and captures its standard output and exit status (black-box tests
// of the `structure` binary; a caller adds `2>&1` to fold in stderr).
#pragma once

#include <sys/wait.h>

#include <cstdio>
#include <string>

namespace structure::testing {

struct CommandRun {
  int exit_code;    // -1 when the command did not exit normally
  std::string out;  // everything it wrote to stdout
};

inline CommandRun RunShell(const std::string& command) {
  FILE* p = popen(command.c_str(), "r");
  if (!p) return {-1, ""};
  std::string out;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), p)) > 0) out.append(buf, n);
  int status = pclose(p);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, out};
}

}  // namespace structure::testing
