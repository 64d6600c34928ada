#include "base/batch_window.h"

#include <thread>

namespace structure {

void BatchWindow::AfterTurn(size_t units) {
  if (window_.count() <= 0 || units == 0) return;
  Clock::time_point now = Clock::now();
  bool under_load = units >= 2 || now - last_busy_ < window_;
  if (under_load) {
    std::this_thread::sleep_for(window_);
    now = Clock::now();
  }
  last_busy_ = now;
}

}  // namespace structure
