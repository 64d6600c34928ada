// `structure batch --stats FILE` end to end against `structure sim` (tests/data/batch/
// scenario.json): the run's metrics per schema and provider as one JSON document.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>

#include "base/json.h"
#include "base/read_file.h"
#include "tests/support/sim_process.h"

namespace structure {
namespace {

const std::string kData = std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/batch/";

class BatchStatsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    sim_ = testing::StartSim(STRUCTURE_BINARY, {"--scenario", kData + "scenario.json"}, &err);
    ASSERT_NE(sim_, nullptr) << err;
    dir_ = ::testing::TempDir() + "batch_stats_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
    mkdir(dir_.c_str(), 0755);
  }

  void TearDown() override {
    sim_.reset();
    std::string rm = "rm -rf '" + dir_ + "'";
    EXPECT_EQ(std::system(rm.c_str()), 0);
  }

  // `structure batch IN -o OUT --stats STATS extra...`: the exit code; stderr in dir_/err.
  int Batch(const std::string& stats, const std::vector<std::string>& extra = {}) {
    std::vector<std::string> argv = {STRUCTURE_BINARY,
                                     "batch",
                                     dir_ + "in.jsonl",
                                     "-o",
                                     dir_ + "out.jsonl",
                                     "--stats",
                                     stats,
                                     "--base-url",
                                     sim_->base_url(),
                                     "--schema",
                                     kData + "schema.json",
                                     "--database",
                                     ":memory:"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    std::string error;
    auto child = testing::ChildProcess::Spawn(
        argv, testing::ChildIo{"", dir_ + "stdout", dir_ + "err"}, &error);
    EXPECT_TRUE(child) << error;
    if (!child) return -1;
    int rc = child->WaitFor(300);
    if (rc < 0) child->Stop();
    return rc;
  }

  std::string Stderr() {
    auto text = ReadFile(dir_ + "err");
    return text.ok() ? *text : "";
  }

  std::unique_ptr<testing::ChildProcess> sim_;
  std::string dir_;
};

int64_t At(const Json& doc, std::initializer_list<const char*> path) {
  const Json* v = &doc;
  for (const char* key : path) {
    v = v->find(key);
    if (v == nullptr) return -1;
  }
  return v->is_int() ? v->as_int() : -1;
}

TEST_F(BatchStatsTest, WritesCallsResultsIterationsReasksTokensAndLatencyAtTheEnd) {
  {
    std::ofstream in(dir_ + "in.jsonl");
    for (int i = 0; i < 6; ++i)
      in << "{\"id\":\"ok" << i << "\",\"prompt\":\"CASE-OK " << i << "\"}\n";
    for (int i = 0; i < 3; ++i)
      in << "{\"id\":\"re" << i << "\",\"prompt\":\"CASE-REASK " << i << "\"}\n";
    in << "{\"id\":\"st\",\"prompt\":\"CASE-STALE\"}\n";
  }
  ASSERT_EQ(Batch(dir_ + "stats.json"), 1) << Stderr();  // one record is stale
  auto text = ReadFile(dir_ + "stats.json");
  ASSERT_TRUE(text.ok()) << Stderr();
  auto doc = ParseJson(*text);
  ASSERT_TRUE(doc.ok()) << *text;
  EXPECT_EQ(At(*doc, {"run", "records"}), 10) << *text;
  EXPECT_EQ(At(*doc, {"run", "resumed"}), 0) << *text;
  EXPECT_EQ(At(*doc, {"schemas", "inline", "calls"}), 10) << *text;
  EXPECT_EQ(At(*doc, {"schemas", "inline", "results", "ok"}), 9) << *text;
  EXPECT_EQ(At(*doc, {"schemas", "inline", "results", "stale"}), 1) << *text;
  EXPECT_EQ(At(*doc, {"schemas", "inline", "iterations", "1"}), 6) << *text;
  EXPECT_EQ(At(*doc, {"schemas", "inline", "iterations", "2"}), 3) << *text;
  EXPECT_EQ(At(*doc, {"schemas", "inline", "iterations", "3"}), 1) << *text;
  // Every re-ask: one per CASE-REASK record, two for the stale one (its third answer ends it).
  EXPECT_EQ(At(*doc, {"schemas", "inline", "reasks", "bounds"}), 5) << *text;
  EXPECT_EQ(At(*doc, {"schemas", "inline", "reasks", "required"}), 0) << *text;
  EXPECT_GT(At(*doc, {"schemas", "inline", "tokens", "input"}), 0) << *text;
  EXPECT_GE(At(*doc, {"schemas", "inline", "tokens", "cachedInput"}), 0) << *text;
  const Json* providers = doc->find("providers");
  ASSERT_TRUE(providers != nullptr && providers->is_object() && providers->as_object().size() == 1)
      << *text;
  const Json& p = providers->as_object().begin()->second;
  EXPECT_EQ(At(p, {"calls"}), 10) << *text;
  EXPECT_EQ(At(p, {"latencySeconds", "buckets", "+Inf"}), 10) << *text;
  EXPECT_EQ(access((dir_ + "stats.json.tmp").c_str(), F_OK), -1);
}

TEST_F(BatchStatsTest, ABadStatsPathIsAUsageErrorBeforeAnyCall) {
  std::ofstream(dir_ + "in.jsonl") << "{\"id\":1,\"prompt\":\"CASE-OK\"}\n";
  EXPECT_EQ(Batch(dir_), 2);
  EXPECT_NE(Stderr().find("--stats " + dir_ + ": is a directory"), std::string::npos) << Stderr();
  EXPECT_EQ(Batch(dir_ + "no/such/folder/stats.json"), 2);
  EXPECT_NE(Stderr().find("does not exist: create it"), std::string::npos) << Stderr();
  EXPECT_EQ(Batch(dir_ + "out.jsonl"), 2);
  EXPECT_NE(Stderr().find("is the output file"), std::string::npos) << Stderr();
  EXPECT_EQ(Batch(dir_ + "in.jsonl"), 2);
  EXPECT_NE(Stderr().find("is the input file"), std::string::npos) << Stderr();
  EXPECT_EQ(access((dir_ + "out.jsonl").c_str(), F_OK), -1);  // nothing ran
}

}  // namespace
}  // namespace structure
