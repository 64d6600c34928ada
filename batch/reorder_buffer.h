// Keeps batch output in input order: results arrive in any order, tagged with their input
// index (0, 1, 2, ...), and leave strictly in index order. The window bounds memory: a
// record may only be started while its index is within `window` of the next one to leave.
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "batch/output_lines.h"

namespace structure::batch {

class ReorderBuffer {
 public:
  explicit ReorderBuffer(uint64_t window) : window_(window == 0 ? 1 : window) {}

  // Whether a record with this index may be started now without exceeding the window.
  bool CanAdmit(uint64_t index) const { return index < next_ + window_; }

  // Stores the output for `index` (each index exactly once, index >= next()).
  void Put(uint64_t index, OutputLine line);

  // Adds to `out`, in order, every stored line from next() on without a gap; returns how many.
  uint64_t TakeReady(OutputLines* out);

  uint64_t next() const { return next_; }
  uint64_t window() const { return window_; }
  size_t buffered() const { return pending_.size(); }

 private:
  uint64_t window_;
  uint64_t next_ = 0;
  std::map<uint64_t, OutputLine> pending_;
};

}  // namespace structure::batch
