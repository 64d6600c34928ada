#include "batch/batch_state.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

namespace structure::batch {
namespace {

class BatchStateTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "batch_state_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    std::system(("rm -rf '" + dir_ + "'").c_str());
  }
  void TearDown() override { std::system(("rm -rf '" + dir_ + "'").c_str()); }
  std::string dir_;
};

SubmitRecord Submit(int64_t seq) {
  SubmitRecord s;
  s.seq = seq;
  s.round = 1;
  s.provider = "openai";
  s.model = "m";
  s.key = "job-" + std::to_string(seq);
  s.custom_ids = {"l1-r1", "l2-r1"};
  s.at_ms = 1234;
  return s;
}

TEST_F(BatchStateTest, JournalReadsBackEveryEvent) {
  {
    auto s = BatchState::Open(dir_);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_FALSE(s->started());
    ASSERT_TRUE(s->Begin("job", "fp").ok());
    ASSERT_TRUE(s->Planned(Submit(1)).ok());
    ASSERT_TRUE(s->Uploaded(1, "file-1").ok());
    ASSERT_TRUE(s->Created(1, "batch_1").ok());
    ASSERT_TRUE(s->Read(1, "{\"id\":\"batch_1\"}\nline\n").ok());
    ASSERT_TRUE(s->Planned(Submit(2)).ok());
    ASSERT_TRUE(s->Rejected(2, "too big").ok());
    EXPECT_EQ(s->next_seq(), 3);
  }
  EXPECT_TRUE(BatchState::Exists(dir_));
  auto s = BatchState::Open(dir_);
  ASSERT_TRUE(s.ok());
  EXPECT_EQ(s->job_id(), "job");
  EXPECT_EQ(s->fingerprint(), "fp");
  const SubmitRecord& one = s->submits().at(1);
  EXPECT_EQ(one.file_id, "file-1");
  EXPECT_EQ(one.batch_id, "batch_1");
  EXPECT_TRUE(one.read);
  EXPECT_EQ(one.custom_ids.size(), 2u);
  EXPECT_EQ(one.at_ms, 1234);
  EXPECT_EQ(*s->Results(1), "{\"id\":\"batch_1\"}\nline\n");
  EXPECT_TRUE(s->submits().at(2).rejected);
  EXPECT_EQ(s->submits().at(2).reject_message, "too big");
  ASSERT_TRUE(s->Remove().ok());
  EXPECT_FALSE(BatchState::Exists(dir_));
}

TEST_F(BatchStateTest, DropsATornLastLineAndRefusesADamagedOne) {
  {
    auto s = BatchState::Open(dir_);
    ASSERT_TRUE(s.ok());
    ASSERT_TRUE(s->Begin("job", "fp").ok());
    ASSERT_TRUE(s->Planned(Submit(1)).ok());
  }
  std::ofstream(dir_ + "/journal.jsonl", std::ios::app) << "{\"created\":1,\"bat";
  {
    auto s = BatchState::Open(dir_);
    ASSERT_TRUE(s.ok()) << s.status().ToString();
    EXPECT_TRUE(s->submits().at(1).batch_id.empty());  // the torn write never happened
    ASSERT_TRUE(s->Created(1, "batch_9").ok());
  }
  auto again = BatchState::Open(dir_);
  ASSERT_TRUE(again.ok()) << again.status().ToString();
  EXPECT_EQ(again->submits().at(1).batch_id, "batch_9");
  std::ofstream(dir_ + "/journal.jsonl", std::ios::app) << "{\"read\":5}\n";
  auto damaged = BatchState::Open(dir_);
  EXPECT_EQ(damaged.status().code(), Code::kInvalidArgument);
  EXPECT_NE(damaged.status().message().find("journal.jsonl:4"), std::string::npos)
      << damaged.status().message();
}

}  // namespace
}  // namespace structure::batch
