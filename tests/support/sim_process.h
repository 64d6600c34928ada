// Starts `structure sim` as a child process on a free loopback port, for round-trip tests and
// benchmarks (tests/support/child_process.h: Stop() reports its CPU time).
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "tests/support/child_process.h"

namespace structure::testing {

// `binary sim --port 0 args...`, once it listens (within 20 s); nullptr with *error otherwise.
inline std::unique_ptr<ChildProcess> StartSim(const std::string& binary,
                                              const std::vector<std::string>& args,
                                              std::string* error) {
  std::vector<std::string> argv = {binary, "sim", "--port", "0"};
  argv.insert(argv.end(), args.begin(), args.end());
  return ChildProcess::StartListening(argv, std::chrono::seconds(20), error);
}

}  // namespace structure::testing
