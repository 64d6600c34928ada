// The files of a batch job (batch/batch_files.h, output_lock.h): checked before any call.
#include "batch/batch_files.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "base/read_file.h"
#include "batch/output_lock.h"
#include "batch/shard.h"

namespace structure::batch {
namespace {

class BatchFilesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "batch_files_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
    mkdir(dir_.c_str(), 0755);
    in_ = dir_ + "in.jsonl";
    out_ = dir_ + "out.jsonl";
    std::ofstream(in_)
        << "{\"id\": \"a\", \"prompt\": \"x\"}\n{\"id\": \"b\", \"prompt\": \"y\"}\n";
  }
  void TearDown() override {
    std::string rm = "rm -rf '" + dir_ + "'";
    EXPECT_EQ(std::system(rm.c_str()), 0);
  }
  FileOptions Options(bool resume = false, bool overwrite = false) {
    FileOptions o;
    o.in_path = in_;
    o.out_path = out_;
    o.resume = resume;
    o.overwrite = overwrite;
    return o;
  }
  std::string dir_, in_, out_;
};

TEST_F(BatchFilesTest, ADirectoryIsNotAnInput) {
  FileOptions o = Options();
  o.in_path = dir_;
  auto f = OpenJobFiles(o);
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), Code::kInvalidArgument);
  EXPECT_NE(f.status().message().find("is a directory"), std::string::npos) << f.status().message();
}

TEST_F(BatchFilesTest, TheOutputIsNeverTheInputAndIsLeftAlone) {
  std::string link_path = dir_ + "link.jsonl";
  ASSERT_EQ(symlink(in_.c_str(), link_path.c_str()), 0);
  for (const std::string& out : {in_, link_path}) {
    FileOptions o = Options(false, true);
    o.out_path = out;
    auto f = OpenJobFiles(o);
    ASSERT_FALSE(f.ok());
    EXPECT_NE(f.status().message().find("is the input file"), std::string::npos)
        << f.status().message();
  }
  EXPECT_EQ(ReadFile(in_)->size(), 54u);
}

TEST_F(BatchFilesTest, OneJobAtATimeHoldsTheOutput) {
  auto first = OpenJobFiles(Options());
  ASSERT_TRUE(first.ok()) << first.status().message();
  for (bool resume : {false, true}) {
    auto second = OpenJobFiles(Options(resume, !resume));
    ASSERT_FALSE(second.ok());
    EXPECT_EQ(second.status().code(), Code::kFailedPrecondition);
    EXPECT_NE(second.status().message().find(out_ + " is in use by another structure batch"),
              std::string::npos)
        << second.status().message();
  }
  ASSERT_TRUE(first->journal->Append("{\"id\":\"a\",\"status\":\"ok\"}\n").ok());
  first = Status(Code::kCancelled, "closed");  // the first job ends: its lock goes with it
  auto third = OpenJobFiles(Options(true));
  ASSERT_TRUE(third.ok()) << third.status().message();
  EXPECT_EQ(third->scan.records, 1u);
}

// A resume that rewrites the journal (cancelled records dropped) keeps the lock on the new file.
TEST_F(BatchFilesTest, TheLockSurvivesTheResumeRewrite) {
  std::ofstream(out_) << "{\"id\":\"a\",\"status\":\"ok\"}\n{\"id\":\"b\",\"status\":\"error\","
                         "\"code\":\"cancelled\"}\n";
  auto job = OpenJobFiles(Options(true));
  ASSERT_TRUE(job.ok()) << job.status().message();
  EXPECT_EQ(job->scan.dropped_cancelled, 1u);
  auto other = OpenJobFiles(Options(true));
  ASSERT_FALSE(other.ok());
  EXPECT_EQ(other.status().code(), Code::kFailedPrecondition);
  ASSERT_TRUE(job->journal->Append("{\"id\":\"b\",\"status\":\"ok\"}\n").ok());
  EXPECT_EQ(*ReadFile(out_),
            "{\"id\":\"a\",\"status\":\"ok\"}\n{\"id\":\"b\",\"status\":\"ok\"}\n");
}

TEST_F(BatchFilesTest, AnOutputOfAnotherInputIsRefused) {
  std::ofstream(out_) << "{\"id\":\"zz\",\"status\":\"ok\"}\n{\"id\":\"a\",\"status\":\"ok\"}\n";
  auto f = OpenJobFiles(Options(true));
  ASSERT_FALSE(f.ok());
  EXPECT_EQ(f.status().code(), Code::kFailedPrecondition);
  EXPECT_NE(f.status().message().find("holds 1 result for records that are not in " + in_ +
                                      " (e.g. \"zz\")"),
            std::string::npos)
      << f.status().message();
}

TEST_F(BatchFilesTest, InputKeysAreTheRunnersKeys) {
  std::ofstream(in_)
      << "{\"id\": \"a\"}\n\n{\"id\": 7}\nnot json\n{\"id\": \"a\"}\n{\"prompt\": \"no id\"}\n";
  auto keys = InputKeys(in_);
  ASSERT_TRUE(keys.ok());
  EXPECT_EQ(*keys, (std::vector<std::string>{"\"a\"", "7", "line:4", "line:5", "line:6"}));
}

TEST_F(BatchFilesTest, AnExistingOutputNeedsResumeOrOverwrite) {
  std::ofstream(out_) << "{\"id\":\"a\",\"status\":\"ok\"}\n";
  auto plain = OpenJobFiles(Options());
  ASSERT_FALSE(plain.ok());
  EXPECT_NE(plain.status().message().find("exists: use --resume"), std::string::npos);
  auto over = OpenJobFiles(Options(false, true));
  ASSERT_TRUE(over.ok()) << over.status().message();
  EXPECT_TRUE(ReadFile(out_)->empty());
}

TEST_F(BatchFilesTest, AResumeWithAnotherShardIsRefusedBeforeOutIsTouched) {
  FileOptions first = Options();
  first.shard = {1, 2};
  {
    auto job = OpenJobFiles(first);
    ASSERT_TRUE(job.ok()) << job.status().message();
    ASSERT_TRUE(job->journal
                    ->Append("{\"id\":\"a\",\"status\":\"error\",\"code\":"
                             "\"cancelled\"}\n")
                    .ok());
  }
  for (Shard other : {Shard{1, 1}, Shard{2, 2}, Shard{1, 3}}) {
    FileOptions o = Options(true);
    o.shard = other;
    auto f = OpenJobFiles(o);
    ASSERT_FALSE(f.ok());
    EXPECT_EQ(f.status().code(), Code::kFailedPrecondition);
    EXPECT_NE(f.status().message().find("--shard: " + out_ + " holds the records of shard 1/2"),
              std::string::npos)
        << f.status().message();
  }
  EXPECT_NE(ReadFile(out_)->find("cancelled"), std::string::npos) << "a refused resume changed OUT";
  FileOptions same = Options(true);
  same.shard = {1, 2};
  auto f = OpenJobFiles(same);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->scan.dropped_cancelled, 1u);
}

TEST_F(BatchFilesTest, AResumeFromAnotherInputIsRefused) {
  ASSERT_TRUE(OpenJobFiles(Options()).ok());
  std::string other = dir_ + "other.jsonl";
  std::ofstream(other) << "{\"id\": \"a\", \"prompt\": \"x\"}\n";
  for (const std::string& input : {other, std::string("-")}) {
    FileOptions o = Options(true);
    o.in_path = input;
    auto f = OpenJobFiles(o);
    ASSERT_FALSE(f.ok()) << input;
    EXPECT_NE(f.status().message().find("the input: " + out_ + " was written from " + in_),
              std::string::npos)
        << f.status().message();
  }
}

TEST_F(BatchFilesTest, AnOutWithoutAJobFileIsResumedWithANoteAndGetsOne) {
  std::ofstream(out_) << "{\"id\":\"a\",\"status\":\"ok\"}\n";
  auto f = OpenJobFiles(Options(true));
  ASSERT_TRUE(f.ok()) << f.status().message();
  ASSERT_EQ(f->notes.size(), 1u);
  EXPECT_NE(f->notes[0].find("no " + out_ + ".job records"), std::string::npos) << f->notes[0];
  auto job = ReadFile(out_ + ".job");
  ASSERT_TRUE(job.ok());
  EXPECT_NE(job->find("\"shard\":\"1/1\""), std::string::npos) << *job;
}

TEST_F(BatchFilesTest, ResultsOfThisShardBelongToItsInput) {
  // The records of shard 1 of 2 are all in the input, though not every input record is.
  std::ofstream(in_) << "{\"id\": \"t-17\", \"prompt\": \"x\"}\n{\"id\": 17, \"prompt\": \"y\"}\n";
  std::string mine = ShardOf("17", 2) == 1 ? "17" : "\"t-17\"";
  FileOptions o = Options();
  o.shard = {1, 2};
  {
    auto job = OpenJobFiles(o);
    ASSERT_TRUE(job.ok()) << job.status().message();
    ASSERT_TRUE(job->journal->Append("{\"id\":" + mine + ",\"status\":\"ok\"}\n").ok());
  }
  o.resume = true;
  auto f = OpenJobFiles(o);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_EQ(f->scan.records, 1u);
}

TEST_F(BatchFilesTest, ADeviceOutputIsWrittenInPlaceAndNeverResumed) {
  FileOptions o = Options();
  o.out_path = "/dev/null";
  auto f = OpenJobFiles(o);
  ASSERT_TRUE(f.ok()) << f.status().message();
  EXPECT_TRUE(f->journal->Append("{\"id\":\"a\",\"status\":\"ok\"}\n").ok());
  struct stat st {};
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  o.resume = true;
  auto again = OpenJobFiles(o);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("/dev/null is a device"), std::string::npos)
      << again.status().message();
}

}  // namespace
}  // namespace structure::batch
