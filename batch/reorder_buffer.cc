#include "batch/reorder_buffer.h"

namespace structure::batch {

void ReorderBuffer::Put(uint64_t index, OutputLine line) {
  if (index < next_) return;  // already written: a caller bug, never a duplicate line
  pending_.emplace(index, std::move(line));
}

uint64_t ReorderBuffer::TakeReady(OutputLines* out) {
  uint64_t n = 0;
  for (auto it = pending_.begin(); it != pending_.end() && it->first == next_;
       it = pending_.erase(it)) {
    out->Add(std::move(it->second));
    ++next_;
    ++n;
  }
  return n;
}

}  // namespace structure::batch
