// Completions: where the engine's threads leave finished results for Python to take. A callback
// only locks a mutex and appends (it never waits for the GIL); Python takes them with the GIL
// released while it waits, or, for asyncio, when the queue's eventfd becomes readable.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <vector>

#include "structure/json.h"
#include "structure/result.h"

namespace structure_py {

struct Completion {
  uint64_t token = 0;        // the caller's number for the request
  structure::Json identity;  // {"id": ...} or {"line": N} for run_many, null for run
  structure::StructureResult result;
};

class Completions {
 public:
  Completions() = default;
  ~Completions();
  Completions(const Completions&) = delete;
  Completions& operator=(const Completions&) = delete;

  void Push(Completion c);

  // Waits up to `timeout_ms` (0: not at all) for at least one completion, then takes up to `max`
  // of them. Called without the GIL.
  std::vector<Completion> Take(size_t max, int timeout_ms);

  // An eventfd that is readable while completions wait (made on first use); Take resets it.
  int EventFd();

 private:
  std::mutex mu_;
  std::condition_variable ready_;
  std::deque<Completion> done_;
  int event_fd_ = -1;
};

}  // namespace structure_py
