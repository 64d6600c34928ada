#include "base/line_reader.h"

#include <cerrno>

namespace structure {

LineReader::Got LineReader::Finish(Got got) {
  ++line_no_;
  bytes_ = seen_;
  seen_ = 0;
  partial_ = false;
  return got;
}

LineReader::Got LineReader::Next() {
  if (!partial_) line_.clear();
  for (size_t read = 0;; ++read) {
    if (read == kReturnEvery) return Got::kInterrupted;  // the caller may want to stop
    int c = getc_unlocked(in_);
    if (c == EOF) {
      if (std::ferror(in_)) {
        bool interrupted = errno == EINTR;
        std::clearerr(in_);
        if (interrupted) return Got::kInterrupted;
        return Got::kError;
      }
      if (!partial_) {
        dropping_ = false;
        return Got::kEnd;
      }
      return Finish(Got::kLine);  // a last line without '\n'
    }
    if (dropping_) {
      if (c == '\n') dropping_ = false;  // the next byte begins the next line
      continue;
    }
    partial_ = true;
    ++seen_;
    if (c == '\n') return Finish(Got::kLine);
    if (line_.size() >= max_) {
      std::string().swap(line_);  // give the memory back
      dropping_ = true;
      return Finish(Got::kTooLong);
    }
    line_ += static_cast<char>(c);
  }
}

}  // namespace structure
