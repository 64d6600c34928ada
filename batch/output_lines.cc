#include "batch/output_lines.h"

#include <algorithm>

namespace structure::batch {

LineTally LineTally::Of(const pipeline::StructureResult& r) {
  LineTally t;
  t.outcome = r.status;
  t.input_tokens = static_cast<uint64_t>(std::max<int64_t>(0, r.usage.input_tokens));
  t.output_tokens = static_cast<uint64_t>(std::max<int64_t>(0, r.usage.output_tokens));
  t.evidence = !r.evidence.is_null() || !r.ungrounded.is_null();
  t.grounded = r.evidence.size();
  t.ungrounded = r.ungrounded.size();
  return t;
}

void LineTally::AddTo(BatchCounts& counts) const {
  counts.Add(outcome, input_tokens, output_tokens);
  if (!evidence) return;
  ++counts.evidence_records;
  counts.grounded += grounded;
  counts.ungrounded += ungrounded;
}

void OutputLines::Add(OutputLine line) {
  text_ += line.text;
  ends_.emplace_back(text_.size(), line.tally);
}

void OutputLines::Clear() {
  text_.clear();
  ends_.clear();
}

Status OutputLines::WriteTo(JournalWriter& out, BatchCounts& counts) {
  size_t written = 0;
  Status st = out.Append(text_, &written);
  if (st.ok()) written = text_.size();
  for (const auto& [end, tally] : ends_) {
    if (end > written) break;
    tally.AddTo(counts);
  }
  Clear();
  return st;
}

}  // namespace structure::batch
