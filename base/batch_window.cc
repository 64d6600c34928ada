#include "base/batch_window.h"

#include <thread>

namespace structure {

void PauseAfterTurn(size_t units, std::chrono::microseconds window) {
  if (window.count() > 0 && units >= kBusyTurn) std::this_thread::sleep_for(window);
}

}  // namespace structure
