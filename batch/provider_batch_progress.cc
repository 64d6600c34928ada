#include "batch/provider_batch_progress.h"

namespace structure::batch {

std::optional<double> EstimateSeconds(const ProgressView& v) {
  int64_t total = 0;
  int64_t answered = 0;
  for (const auto& b : v.running) {
    total += b.total;
    answered += b.succeeded + b.failed;
  }
  if (total <= 0 || answered <= 0) return std::nullopt;
  double p = static_cast<double>(answered) / static_cast<double>(total);
  return v.elapsed_s * (1 - p) / p;
}

std::string FormatBatchProgress(const ProgressView& v) {
  std::string s = "round " + std::to_string(v.round);
  if (!v.running.empty()) {
    const auto& b = v.running.front();
    s += " | " + b.id + " " + b.status;
    if (b.total > 0)
      s += " " + std::to_string(b.succeeded + b.failed) + "/" + std::to_string(b.total);
    if (v.running.size() > 1) s += " (+" + std::to_string(v.running.size() - 1) + " more)";
  }
  s += " | " + std::to_string(v.done.total()) + "/" + std::to_string(v.total) + " ok " +
       std::to_string(v.done.ok) + " need " + std::to_string(v.done.need_more_input) + " stale " +
       std::to_string(v.done.stale) + " error " + std::to_string(v.done.error);
  s += " | waiting " + std::to_string(v.waiting);
  if (auto eta = EstimateSeconds(v)) s += " | ETA " + FormatDuration(*eta);
  return s;
}

}  // namespace structure::batch
