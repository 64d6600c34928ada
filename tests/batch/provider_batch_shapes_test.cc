// `structure batch --provider-batch` in each provider's batch shape (OpenAI, Anthropic, Gemini)
// against `structure sim`: per-request faults (the provider's 400, a 5xx, a body that is not a
// reply, cancelled requests) end their records honestly and survive --no-wait / --resume,
// transient ones are retried, and a round is split at the cap.
#include <gtest/gtest.h>

#include "tests/batch/provider_batch_fixture.h"

namespace structure {
namespace {

using testing::ExpectEveryIdOnce;
using testing::kData;
using testing::ReadOut;

class ProviderBatchShapesTest : public testing::ProviderBatchCliTest {};

// The caps split a round in the Anthropic and Gemini shapes too.
TEST_F(ProviderBatchShapesTest, SplitsARoundAtTheCapInTheOtherShapes) {
  for (auto [kind, model] :
       {std::pair{"anthropic", "claude-sonnet-4-5"}, std::pair{"gemini", "gemini-2.5-flash"}}) {
    SCOPED_TRACE(kind);
    auto& sim = Sim({"--batch-max-requests", "7"});
    std::string in = Input(20), out = dir_ + kind + ".jsonl";
    int code =
        Run({in, "-o", out, "--schema", kData + "schema.json", "--provider-batch", "--poll-ms",
             "20", "--batch-max-requests", "7", "--config", Config(kind, sim.base_url(), model)},
            kind);
    EXPECT_TRUE(code == 0 || code == 1) << Err(kind);
    ExpectEveryIdOnce(out, 20, "");
    EXPECT_GE(Batches(sim, "created"), 3);  // round 1 alone is 7 + 7 + 6
    EXPECT_EQ(Batches(sim, "requests"), Iterations(out));
  }
}

// Per-request faults in every batch shape: some requests come back with the provider's 400, a
// 5xx, a body that is not a reply, or cancelled. With no retries each such record ends with the
// error the live path gives that answer; the others end as usual, none is lost, and the job
// runs across a --no-wait / --resume pair without submitting or downloading anything twice.
TEST_F(ProviderBatchShapesTest, PerRequestFaultsInEveryShapeEndTheirRecordsHonestly) {
  for (auto [kind, model] :
       {std::pair{"openai", "gpt-4o-mini"}, std::pair{"anthropic", "claude-sonnet-4-5"},
        std::pair{"gemini", "gemini-2.5-flash"}}) {
    SCOPED_TRACE(kind);
    auto& sim =
        Sim({"--batch-delay-ms", "300", "--batch-reject-rate", "0.2", "--batch-malformed-rate",
             "0.2", "--batch-error-rate", "0.1", "--batch-fault", "1:cancelled"});
    std::string in = Input(20), out = dir_ + kind + ".jsonl";
    std::vector<std::string> args = {in,
                                     "-o",
                                     out,
                                     "--schema",
                                     kData + "schema.json",
                                     "--provider-batch",
                                     "--poll-ms",
                                     "20",
                                     "--batch-retries",
                                     "0",
                                     "--config",
                                     Config(kind, sim.base_url(), model)};
    std::vector<std::string> submit = args, resume = args;
    submit.push_back("--no-wait");
    resume.push_back("--resume");
    std::string tag = kind;
    ASSERT_EQ(Run(submit, tag + "-submit"), 0) << Err(tag + "-submit");
    EXPECT_EQ(ReadOut(out).size(), 0u);
    EXPECT_EQ(Run(resume, tag + "-resume"), 1) << Err(tag + "-resume");
    ExpectEveryIdOnce(out, 20, "");
    int rejected = 0, malformed = 0, errored = 0, cancelled = 0, fine = 0;
    for (const auto& [key, recs] : ReadOut(out)) {
      const Json& r = recs[0];
      std::string text = ToJson(r);
      std::string code = r.find("code") ? r.find("code")->as_string() : "";
      if (code == "provider_rejected_request") {
        EXPECT_NE(text.find("Simulated: this request was rejected."), std::string::npos) << text;
        ++rejected;
      } else if (code == "provider_unavailable") {
        (text.find(" reply: no ") != std::string::npos ? malformed : errored) += 1;
      } else if (code == "batch_cancelled") {
        ++cancelled;
      } else {
        EXPECT_NE(r.find("status")->as_string(), "error") << text;
        ++fine;
      }
    }
    // The simulator's own count of each fault it drew, over every round's batches.
    Json faults = *Stats(sim).find("faults");
    auto drawn = [&](const char* f) { return faults.find(f) ? faults.find(f)->as_int() : 0; };
    EXPECT_EQ(rejected, drawn("batch_rejected"));
    EXPECT_EQ(malformed, drawn("batch_malformed"));
    EXPECT_EQ(errored, drawn("batch_errored"));
    EXPECT_EQ(cancelled, 10);  // the second half of the first batch
    EXPECT_GT(rejected + malformed + errored, 0);
    EXPECT_GT(fine, 0);
    // Every call the loops made went into a batch once (an error result counts no iteration:
    // each failed record sent one request more); a third run finds nothing to do.
    int64_t created = Batches(sim, "created"), downloads = Batches(sim, "results_downloads");
    EXPECT_EQ(Batches(sim, "requests"),
              Iterations(out) + rejected + malformed + errored + cancelled);
    EXPECT_EQ(Run(resume, tag + "-again"), 1) << Err(tag + "-again");
    ExpectEveryIdOnce(out, 20, "");
    EXPECT_EQ(Batches(sim, "created"), created);
    EXPECT_EQ(Batches(sim, "results_downloads"), downloads);
  }
}

// Transient per-request faults (a 5xx, a body that is not a reply) are sent again in the next
// round in every shape, so with enough retries no record ends in error. (The fates are drawn
// from the seed, the batch and the custom_id: the same every run.)
TEST_F(ProviderBatchShapesTest, TransientRequestFaultsAreRetriedInEveryShape) {
  for (auto [kind, model] :
       {std::pair{"openai", "gpt-4o-mini"}, std::pair{"anthropic", "claude-sonnet-4-5"},
        std::pair{"gemini", "gemini-2.5-flash"}}) {
    SCOPED_TRACE(kind);
    auto& sim = Sim({"--batch-malformed-rate", "0.2", "--batch-error-rate", "0.2"});
    std::string in = Input(20), out = dir_ + kind + ".jsonl";
    int code =
        Run({in, "-o", out, "--schema", kData + "schema.json", "--provider-batch", "--poll-ms",
             "20", "--batch-retries", "20", "--config", Config(kind, sim.base_url(), model)},
            kind);
    EXPECT_TRUE(code == 0 || code == 1) << Err(kind);
    ExpectEveryIdOnce(out, 20, "");
    for (const auto& [key, recs] : ReadOut(out)) {
      EXPECT_NE(recs[0].find("status")->as_string(), "error") << ToJson(recs[0]);
    }
    Json faults = *Stats(sim).find("faults");
    int64_t resent =
        (faults.find("batch_malformed") ? faults.find("batch_malformed")->as_int() : 0) +
        (faults.find("batch_errored") ? faults.find("batch_errored")->as_int() : 0);
    EXPECT_GT(resent, 0);
    EXPECT_EQ(Batches(sim, "requests"), Iterations(out) + resent);  // each fault cost one resend
  }
}

}  // namespace
}  // namespace structure
