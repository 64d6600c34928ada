// Collects a transport's completions, delivered on its I/O thread, for tests to wait on.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <vector>

#include "providers/transport/transport.h"

namespace structure::providers {

struct Inbox {
  std::mutex mu;
  std::condition_variable cv;
  std::vector<Completion> done;
  size_t largest_batch = 0;  // the most completions one call of the sink carried

  CompletionSink Sink() {
    return [this](std::vector<Completion>&& batch) {
      std::lock_guard<std::mutex> lock(mu);
      largest_batch = std::max(largest_batch, batch.size());
      for (auto& c : batch) done.push_back(std::move(c));
      cv.notify_all();
    };
  }
  // True once `n` completions arrived, false after 20 s.
  bool WaitFor(size_t n) {
    std::unique_lock<std::mutex> lock(mu);
    return cv.wait_for(lock, std::chrono::seconds(20), [&] { return done.size() >= n; });
  }
  size_t size() {
    std::lock_guard<std::mutex> lock(mu);
    return done.size();
  }
};

}  // namespace structure::providers
