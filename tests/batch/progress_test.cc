#include "batch/progress.h"

#include <gtest/gtest.h>

namespace structure::batch {
namespace {

TEST(Progress, FormatsDurations) {
  EXPECT_EQ(FormatDuration(0.42), "0.4s");
  EXPECT_EQ(FormatDuration(12.4), "12s");
  EXPECT_EQ(FormatDuration(185), "3m05s");
  EXPECT_EQ(FormatDuration(3720), "1h02m");
  EXPECT_EQ(FormatDuration(-3), "0.0s");
}

TEST(Progress, CountsByStatusName) {
  BatchCounts c;
  c.AddNamed("ok", 10, 2);
  c.AddNamed("need-more-input", 1, 1);
  c.AddNamed("stale", 0, 0);
  c.AddNamed("error", 0, 0);
  c.AddNamed("weird", 0, 0);
  EXPECT_EQ(c.ok, 1u);
  EXPECT_EQ(c.need_more_input, 1u);
  EXPECT_EQ(c.stale, 1u);
  EXPECT_EQ(c.error, 2u);
  EXPECT_EQ(c.total(), 5u);
  EXPECT_FALSE(c.all_ok());
  EXPECT_EQ(c.input_tokens, 11u);
}

TEST(Progress, LineShowsCountsRateEtaAndTokens) {
  BatchCounts c;
  for (int i = 0; i < 240; ++i) c.Add(pipeline::Outcome::kOk, 1000, 100);
  for (int i = 0; i < 10; ++i) c.Add(pipeline::Outcome::kStale, 0, 0);
  EXPECT_EQ(FormatProgress(c, 64, 50, 1000),
            "250/1000 (25.0%) | ok 240 need 0 stale 10 error 0 | 64 in flight | 50.0/s | "
            "ETA 15s | tokens 240k in / 24k out");
  EXPECT_EQ(
      FormatProgress(c, 0, 0, std::nullopt),
      "250 | ok 240 need 0 stale 10 error 0 | 0 in flight | 0.0/s | tokens 240k in / 24k out");
}

TEST(Progress, SummaryMentionsResumedAndInterruption) {
  BatchCounts c;
  c.Add(pipeline::Outcome::kOk, 5, 5);
  c.Add(pipeline::Outcome::kError, 0, 0);
  EXPECT_EQ(FormatSummary(c, 1, 2, 0.5, true),
            "structure batch: 2 records: ok 1, need-more-input 0, stale 0, error 1 (1 resumed) in "
            "2.0s, 0.5/s, tokens 5 in / 5 out, interrupted (rerun with --resume to finish)");
}

}  // namespace
}  // namespace structure::batch

namespace structure::batch {
namespace {

TEST(Progress, SummaryCountsGroundedAndUngroundedLeavesWhenResultsCarryEvidence) {
  BatchCounts c;
  c.Add(pipeline::Outcome::kOk, 5, 5);
  c.AddEvidence(*ParseJson(R"({"/a":{},"/b":{}})"), *ParseJson(R"(["/c"])"));
  c.AddEvidence(Json(), Json());  // evidence off: not counted
  BatchCounts resumed;
  resumed.AddEvidence(*ParseJson(R"({"/a":{}})"), *ParseJson("[]"));
  c.Merge(resumed);
  EXPECT_EQ(c.evidence_records, 2u);
  EXPECT_EQ(FormatSummary(c, 0, 2, 0.5, false),
            "structure batch: 1 records: ok 1, need-more-input 0, stale 0, error 0 in 2.0s, "
            "0.5/s, tokens 5 in / 5 out, evidence: 3 grounded, 1 ungrounded");
  BatchCounts off;
  off.Add(pipeline::Outcome::kOk, 5, 5);
  EXPECT_EQ(FormatSummary(off, 0, 2, 0.5, false).find("evidence"), std::string::npos);
}

}  // namespace
}  // namespace structure::batch
