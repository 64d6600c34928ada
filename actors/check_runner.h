// Semantic checks outside C++: a check command runs as a child process with the
// candidate answer as JSON on stdin and the prompt in the environment; it prints one violation
// per line, or nothing to accept. One thread per runner watches every running check (poll on
// their pipes), so a check never blocks an actor's thread and many run at once.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "structure/check.h"
#include "structure/status.h"

namespace structure::actors {

// A check command (structure/check.h), from `--check "CMD ARGS"` or a tenant's `check` in the
// server config, never from a request body.
using structure::CheckCommand;

// Lines of a verdict, or why there is none (kFailedPrecondition for a check that failed,
// crashed or timed out; kCancelled when the runner stopped first).
using CheckVerdict = Result<std::vector<std::string>>;

class CheckRunner {
 public:
  struct Options {
    size_t max_running = 16;            // more checks wait in a queue
    size_t max_output_bytes = 1 << 20;  // stdout beyond this is a failure
  };

  CheckRunner();
  explicit CheckRunner(Options options);
  ~CheckRunner();  // Stop()
  CheckRunner(const CheckRunner&) = delete;
  CheckRunner& operator=(const CheckRunner&) = delete;

  // Starts (or queues) one check. `done` runs exactly once, on the runner's thread, and must
  // not block. Thread-safe.
  void Run(const CheckCommand& command, std::string answer, std::string prompt,
           std::function<void(CheckVerdict)> done);

  // Kills the running checks (their process groups), answers them and the queued ones
  // kCancelled, and joins the thread. Idempotent.
  void Stop();

  struct Impl;

 private:
  std::unique_ptr<Impl> impl_;
};

}  // namespace structure::actors
