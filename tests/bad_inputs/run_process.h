// Runs one command of the bad-input table: bytes on stdin, stdout and stderr captured, a time
// limit, and its whole process group killed afterwards (so a row's background processes never
// outlive it).
#pragma once

#include <chrono>
#include <string>
#include <vector>

namespace structure::testing {

struct ProcessResult {
  int exit_code = -1;  // the exit status, or 128 + the signal that ended the process
  bool timed_out = false;
  std::string out;
  std::string err;
  std::string error;  // set when the process could not be started
};

struct ProcessSpec {
  std::vector<std::string> argv;  // argv[0] is a path
  std::vector<std::string> env;   // the whole environment, "NAME=value"
  std::string cwd;
  std::string input;    // written to stdin, which is then closed
  std::string scratch;  // a directory for the captured streams (not cwd)
  std::chrono::seconds timeout{120};
};

// Runs the command to its end (or kills it at the timeout). Never throws.
ProcessResult RunProcess(const ProcessSpec& spec);

// Reads a whole file; empty when it cannot be read.
std::string ReadAll(const std::string& path);

}  // namespace structure::testing
