#include "batch/provider_batch_progress.h"

#include <gtest/gtest.h>

#include "batch/provider_batch.h"

namespace structure::batch {
namespace {

TEST(ProviderBatchProgressTest, ShowsRoundBatchCountsWaitingAndEstimate) {
  ProgressView v;
  v.round = 2;
  providers::BatchInfo b;
  b.id = "batch_abc";
  b.status = "in_progress";
  b.total = 400;
  b.succeeded = 100;
  v.running = {b, b};
  v.done.ok = 1490;
  v.done.error = 5;
  v.waiting = 400;
  v.total = 2000;
  v.elapsed_s = 30;
  EXPECT_EQ(FormatBatchProgress(v),
            "round 2 | batch_abc in_progress 100/400 (+1 more) | 1495/2000 ok 1490 need 0 stale 0 "
            "error 5 | waiting 400 | ETA 1m30s");
  v.running.clear();
  EXPECT_EQ(EstimateSeconds(v), std::nullopt);
}

TEST(ProviderBatchProgressTest, SummaryNamesBatchesRoundsDiscountAndWhatWaits) {
  ProviderBatchReport r;
  r.submitted = {"a", "b", "c"};
  r.rounds = 2;
  r.discount = 0.5;
  EXPECT_EQ(FormatBatchSummary(r), "3 provider batches submitted, 2 rounds, batch discount 0.5");
  r.submitted = {"a"};
  r.rounds = 1;
  r.waiting = 20;
  r.pending_batches = 1;
  EXPECT_EQ(FormatBatchSummary(r),
            "1 provider batch submitted, 1 round, batch discount 0.5; 20 records wait for 1 batch "
            "(--resume collects them)");
}

}  // namespace
}  // namespace structure::batch
