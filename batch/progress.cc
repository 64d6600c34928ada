#include "batch/progress.h"

#include <cstdio>

namespace structure::batch {

void BatchCounts::Add(pipeline::Outcome outcome, uint64_t in_tokens, uint64_t out_tokens) {
  switch (outcome) {
    case pipeline::Outcome::kOk:
      ++ok;
      break;
    case pipeline::Outcome::kNeedMoreInput:
      ++need_more_input;
      break;
    case pipeline::Outcome::kStale:
      ++stale;
      break;
    case pipeline::Outcome::kError:
      ++error;
      break;
  }
  input_tokens += in_tokens;
  output_tokens += out_tokens;
}

void BatchCounts::AddNamed(std::string_view status, uint64_t in_tokens, uint64_t out_tokens) {
  if (status == "ok") {
    Add(pipeline::Outcome::kOk, in_tokens, out_tokens);
  } else if (status == "need-more-input") {
    Add(pipeline::Outcome::kNeedMoreInput, in_tokens, out_tokens);
  } else if (status == "stale") {
    Add(pipeline::Outcome::kStale, in_tokens, out_tokens);
  } else {
    Add(pipeline::Outcome::kError, in_tokens, out_tokens);
  }
}

void BatchCounts::Merge(const BatchCounts& o) {
  ok += o.ok;
  need_more_input += o.need_more_input;
  stale += o.stale;
  error += o.error;
  input_tokens += o.input_tokens;
  output_tokens += o.output_tokens;
  evidence_records += o.evidence_records;
  grounded += o.grounded;
  ungrounded += o.ungrounded;
}

void BatchCounts::AddEvidence(const Json& evidence, const Json& missing) {
  if (evidence.is_null() && missing.is_null()) return;
  ++evidence_records;
  grounded += evidence.size();
  ungrounded += missing.size();
}

namespace {

std::string Printf(const char* fmt, double a, double b = 0) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), fmt, a, b);
  return buf;
}

std::string Compact(uint64_t n) {
  if (n >= 10'000'000) return Printf("%.0fM", static_cast<double>(n) / 1e6);
  if (n >= 1'000'000) return Printf("%.1fM", static_cast<double>(n) / 1e6);
  if (n >= 10'000) return Printf("%.0fk", static_cast<double>(n) / 1e3);
  return std::to_string(n);
}

std::string Rate(double r) { return r >= 100 ? Printf("%.0f", r) : Printf("%.1f", r); }

}  // namespace

std::string FormatDuration(double s) {
  if (s < 0) s = 0;
  if (s < 10) return Printf("%.1fs", s);
  auto total = static_cast<uint64_t>(s + 0.5);
  uint64_t h = total / 3600, m = (total % 3600) / 60, sec = total % 60;
  char buf[48];
  if (h > 0) {
    std::snprintf(buf, sizeof(buf), "%lluh%02llum", static_cast<unsigned long long>(h),
                  static_cast<unsigned long long>(m));
  } else if (m > 0) {
    std::snprintf(buf, sizeof(buf), "%llum%02llus", static_cast<unsigned long long>(m),
                  static_cast<unsigned long long>(sec));
  } else {
    std::snprintf(buf, sizeof(buf), "%llus", static_cast<unsigned long long>(sec));
  }
  return buf;
}

std::string FormatProgress(const BatchCounts& done, uint64_t in_flight, double rate,
                           std::optional<uint64_t> total) {
  std::string out = std::to_string(done.total());
  if (total && *total > 0) {
    out += "/" + std::to_string(*total) +
           Printf(" (%.1f%%)",
                  100.0 * static_cast<double>(done.total()) / static_cast<double>(*total));
  }
  out += " | ok " + std::to_string(done.ok) + " need " + std::to_string(done.need_more_input) +
         " stale " + std::to_string(done.stale) + " error " + std::to_string(done.error);
  out += " | " + std::to_string(in_flight) + " in flight | " + Rate(rate) + "/s";
  if (total && rate > 0 && *total >= done.total()) {
    out += " | ETA " + FormatDuration(static_cast<double>(*total - done.total()) / rate);
  }
  out +=
      " | tokens " + Compact(done.input_tokens) + " in / " + Compact(done.output_tokens) + " out";
  return out;
}

std::string FormatSummary(const BatchCounts& all, uint64_t resumed, double elapsed, double rate,
                          bool interrupted, bool resumable) {
  std::string out = "structure batch: " + std::to_string(all.total()) + " records: ok " +
                    std::to_string(all.ok) + ", need-more-input " +
                    std::to_string(all.need_more_input) + ", stale " + std::to_string(all.stale) +
                    ", error " + std::to_string(all.error);
  if (resumed > 0) out += " (" + std::to_string(resumed) + " resumed)";
  out += " in " + FormatDuration(elapsed) + ", " + Rate(rate) + "/s, tokens " +
         Compact(all.input_tokens) + " in / " + Compact(all.output_tokens) + " out";
  if (all.evidence_records > 0) {
    out += ", evidence: " + std::to_string(all.grounded) + " grounded, " +
           std::to_string(all.ungrounded) + " ungrounded";
  }
  if (interrupted) {
    out += resumable ? ", interrupted (rerun with --resume to finish)"
                     : ", interrupted (the output is not a file --resume can continue: the "
                       "records it lacks must run again)";
  }
  return out;
}

}  // namespace structure::batch
