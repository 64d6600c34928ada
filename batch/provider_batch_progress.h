// The progress line of a provider batch job on a terminal: the round, each running batch's
// provider status and counts, records done per status, records waiting, and an estimate.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "batch/progress.h"
#include "providers/batch_wire.h"

namespace structure::batch {

struct ProgressView {
  int round = 0;                              // the highest round submitted
  std::vector<providers::BatchInfo> running;  // batches polled and not ended
  BatchCounts done;                           // records written (resumed ones included)
  uint64_t waiting = 0;                       // records not ended
  uint64_t total = 0;                         // records in the input
  double elapsed_s = 0;
};

// Seconds left, from how far the running batches are: elapsed * (1 - p) / p for the share p
// of their requests answered; nullopt before any has an answer.
std::optional<double> EstimateSeconds(const ProgressView& view);

// "round 2 | batch_abc in_progress 120/400 (+1 more) | 1500/2000 ok 1490 need 3 stale 2
// error 5 | waiting 494 | ETA 4m10s"
std::string FormatBatchProgress(const ProgressView& view);

}  // namespace structure::batch
