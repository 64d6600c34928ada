#include "batch/reorder_buffer.h"

namespace structure::batch {

void ReorderBuffer::Put(uint64_t index, std::string line) {
  if (index < next_) return;  // already written: a caller bug, never a duplicate line
  pending_.emplace(index, std::move(line));
}

uint64_t ReorderBuffer::TakeReady(std::string* out) {
  uint64_t n = 0;
  for (auto it = pending_.begin(); it != pending_.end() && it->first == next_;
       it = pending_.erase(it)) {
    out->append(it->second);
    ++next_;
    ++n;
  }
  return n;
}

}  // namespace structure::batch
