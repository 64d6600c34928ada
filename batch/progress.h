// Counting batch results and the text shown for them: the live progress line (stderr on a
// terminal) and the one-line summary at the end.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "pipeline/result.h"

namespace structure::batch {

struct BatchCounts {
  uint64_t ok = 0;
  uint64_t need_more_input = 0;
  uint64_t stale = 0;
  uint64_t error = 0;
  uint64_t input_tokens = 0;
  uint64_t output_tokens = 0;
  // Evidence: leaves of the results that carry evidence, grounded or not.
  uint64_t evidence_records = 0;
  uint64_t grounded = 0;
  uint64_t ungrounded = 0;

  uint64_t total() const { return ok + need_more_input + stale + error; }
  bool all_ok() const { return total() == ok; }
  void Add(pipeline::Outcome outcome, uint64_t in_tokens, uint64_t out_tokens);
  // Adds by status name ("ok", "need-more-input", "stale", anything else = error).
  void AddNamed(std::string_view status, uint64_t in_tokens, uint64_t out_tokens);
  void Merge(const BatchCounts& other);
  // Counts a result's evidence (its "evidence" object and "ungrounded" list; null when off).
  void AddEvidence(const Json& evidence, const Json& missing);
};

// "1h02m", "3m05s", "12s", "0.4s".
std::string FormatDuration(double seconds);

// "1234/5000 (24.7%) ok 1200 need 20 stale 4 error 10 | 256 in flight | 310.2/s | ETA 12s |
// tokens 120k in / 30k out". `done` includes resumed records; `total` is unknown for stdin.
std::string FormatProgress(const BatchCounts& done, uint64_t in_flight, double rate_per_s,
                           std::optional<uint64_t> total);

// "structure batch: 5000 records: ok 4900, need-more-input 50, stale 20, error 30 (1200
// resumed) in 16s, 312/s, tokens 1.2M in / 300k out" plus ", evidence: 310 grounded, 4
// ungrounded" when results carried evidence and ", interrupted" when cut short, saying how to go
// on: --resume when the output is a file it can continue, else that it cannot.
std::string FormatSummary(const BatchCounts& all, uint64_t resumed, double elapsed_s,
                          double rate_per_s, bool interrupted, bool resumable = true);

}  // namespace structure::batch
