// Reads a stream line by line with a bound on a line's length, so an input without newlines
// (/dev/zero, a binary file, `yes | tr -d '\n'`) costs bounded memory and bounded time between
// returns: a line longer than the bound is reported as soon as it passes the bound, and its
// remaining bytes are dropped, up to its end. Used for JSONL inputs (batch) and messages (MCP
// over stdio).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace structure {

class LineReader {
 public:
  // A call of Next returns kInterrupted at least every kReturnEvery bytes read, so that the
  // caller can look at its stop flag even when the input never ends a line.
  static constexpr size_t kReturnEvery = size_t{1} << 16;

  LineReader(std::FILE* in, size_t max_line_bytes) : in_(in), max_(max_line_bytes) {}

  enum class Got {
    kLine,         // line() holds the next line (without its '\n'; NULs and '\r' kept)
    kTooLong,      // the next line passed max_line_bytes: reported there; the following calls
                   // drop the rest of it, to its end
    kEnd,          // no more input
    kInterrupted,  // a signal interrupted a blocking read, or kReturnEvery bytes were read
                   // without ending a line: what was read is kept; look at the stop flag, then
                   // call again
    kError,        // a read failed (errno says why)
  };
  Got Next();

  // The line of the last kLine.
  std::string_view line() const { return line_; }
  // 1-based number of the line last returned (kLine or kTooLong), counting every line.
  uint64_t line_no() const { return line_no_; }
  // Bytes the last line had, its '\n' included (kTooLong: max_line_bytes + 1, those read when
  // it passed the bound).
  size_t bytes() const { return bytes_; }
  size_t max_line_bytes() const { return max_; }

 private:
  Got Finish(Got got);

  std::FILE* in_;
  size_t max_;
  std::string line_;
  bool dropping_ = false;  // the rest of a line reported kTooLong is being dropped
  bool partial_ = false;   // a line is under way (kept over kInterrupted), not when dropping
  uint64_t line_no_ = 0;
  size_t bytes_ = 0;
  size_t seen_ = 0;  // bytes of the line under way
};

}  // namespace structure
