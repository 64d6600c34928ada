#include "base/batch_window.h"

#include <algorithm>
#include <thread>

namespace structure {

void BatchWindow::AfterTurn(size_t units, size_t open) {
  if (window_.count() <= 0 || units == 0) return;
  std::chrono::microseconds wait = Decide(units, open, Clock::now());
  if (wait.count() > 0) {
    std::this_thread::sleep_for(wait);
    last_busy_ = Clock::now();
  }
}

std::chrono::microseconds BatchWindow::Decide(size_t units, size_t open, Clock::time_point now) {
  if (window_.count() <= 0 || units == 0) return std::chrono::microseconds(0);
  bool under_load = open >= 2 && (units >= 2 || now - last_busy_ < window_);
  last_busy_ = now;
  return under_load ? Wait() : std::chrono::microseconds(0);
}

void BatchWindow::Observe(Clock::duration latency) {
  double us = std::chrono::duration<double, std::micro>(latency).count();
  latency_us_ = latency_us_ < 0 ? us : latency_us_ + (us - latency_us_) / 16;
}

std::chrono::microseconds BatchWindow::Wait() const {
  if (latency_us_ < 0) return window_;
  auto share = std::chrono::microseconds(static_cast<int64_t>(latency_us_ / 8));
  return std::min(window_, share);
}

}  // namespace structure
