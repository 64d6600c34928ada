// Result lines on their way to OUT, each with what it counts for in the job's totals. Only the
// lines a write put into OUT whole are counted: when the disk fills up part way through a write,
// the summary counts the complete lines before the failure, not the records that ended.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/status.h"
#include "batch/journal.h"
#include "batch/progress.h"
#include "pipeline/result.h"

namespace structure::batch {

// What one record's result line adds to BatchCounts.
struct LineTally {
  pipeline::Outcome outcome = pipeline::Outcome::kError;
  uint64_t input_tokens = 0;
  uint64_t output_tokens = 0;
  bool evidence = false;  // the result carries evidence (grounded and ungrounded leaves below)
  uint64_t grounded = 0;
  uint64_t ungrounded = 0;

  static LineTally Of(const pipeline::StructureResult& result);
  void AddTo(BatchCounts& counts) const;
};

// One formatted result line (newline included) and its tally.
struct OutputLine {
  std::string text;
  LineTally tally;
};

class OutputLines {
 public:
  void Add(OutputLine line);
  bool empty() const { return text_.empty(); }
  const std::string& text() const { return text_; }  // the lines, in the order added
  void Clear();

  // Appends every line to `out` with one write and adds the tallies of the lines written whole
  // to `counts`: all of them when the write succeeds, those before the failure otherwise.
  // Empties the buffer either way; returns the write's status.
  Status WriteTo(JournalWriter& out, BatchCounts& counts);

 private:
  std::string text_;
  std::vector<std::pair<size_t, LineTally>> ends_;  // offset just past each line, its tally
};

}  // namespace structure::batch
