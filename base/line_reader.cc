#include "base/line_reader.h"

#include <cerrno>

namespace structure {

LineReader::Got LineReader::Finish(Got got) {
  ++line_no_;
  bytes_ = seen_;
  seen_ = 0;
  partial_ = false;
  if (too_long_) {
    too_long_ = false;
    std::string().swap(line_);  // give the memory back
    return Got::kTooLong;
  }
  return got;
}

LineReader::Got LineReader::Next() {
  if (!partial_) line_.clear();
  for (;;) {
    int c = getc_unlocked(in_);
    if (c == EOF) {
      if (std::ferror(in_)) {
        bool interrupted = errno == EINTR;
        std::clearerr(in_);
        if (interrupted) return Got::kInterrupted;
        return Got::kError;
      }
      if (!partial_) return Got::kEnd;
      return Finish(Got::kLine);  // a last line without '\n'
    }
    partial_ = true;
    ++seen_;
    if (c == '\n') return Finish(Got::kLine);
    if (too_long_) continue;
    if (line_.size() >= max_) {
      too_long_ = true;
      std::string().swap(line_);
      continue;
    }
    line_ += static_cast<char>(c);
  }
}

}  // namespace structure
