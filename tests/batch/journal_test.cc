#include "batch/journal.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "base/json.h"
#include "base/read_file.h"

namespace structure::batch {
namespace {

class JournalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = ::testing::TempDir() + "journal_" + std::to_string(getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".jsonl";
    ::unlink(path_.c_str());
  }
  void TearDown() override { ::unlink(path_.c_str()); }
  void Write(const std::string& text) { std::ofstream(path_, std::ios::binary) << text; }
  std::string Read() { return ReadFile(path_).ok() ? *ReadFile(path_) : "<missing>"; }
  std::string path_;
};

TEST_F(JournalTest, MissingFileIsAnEmptyJournal) {
  auto scan = RecoverJournal(path_);
  ASSERT_TRUE(scan.ok()) << scan.status().message();
  EXPECT_TRUE(scan->done.empty());
  EXPECT_EQ(scan->records, 0u);
}

TEST_F(JournalTest, CollectsKeysAndCounts) {
  Write(
      "{\"id\":\"a\",\"status\":\"ok\",\"data\":{},\"usage\":{\"inputTokens\":10,\"outputTokens\":"
      "3}}\n"
      "{\"id\":7,\"status\":\"stale\",\"errors\":[]}\n"
      "{\"line\":4,\"status\":\"error\",\"code\":\"bad_request\",\"errors\":[\"x\"]}\n");
  auto scan = RecoverJournal(path_);
  ASSERT_TRUE(scan.ok()) << scan.status().message();
  EXPECT_EQ(scan->records, 3u);
  EXPECT_EQ(scan->done.count("\"a\""), 1u);
  EXPECT_EQ(scan->done.count("7"), 1u);
  EXPECT_EQ(scan->done.count("line:4"), 1u);
  EXPECT_EQ(scan->counts.ok, 1u);
  EXPECT_EQ(scan->counts.stale, 1u);
  EXPECT_EQ(scan->counts.error, 1u);
  EXPECT_EQ(scan->counts.input_tokens, 10u);
  EXPECT_FALSE(scan->dropped_torn_tail);
}

TEST_F(JournalTest, TruncatesATornLastLineAndAppendsCleanlyAfterIt) {
  Write("{\"id\":\"a\",\"status\":\"ok\",\"data\":{}}\n{\"id\":\"b\",\"status\":\"o");
  auto scan = RecoverJournal(path_);
  ASSERT_TRUE(scan.ok()) << scan.status().message();
  EXPECT_TRUE(scan->dropped_torn_tail);
  EXPECT_EQ(scan->records, 1u);
  EXPECT_EQ(scan->done.count("\"b\""), 0u);
  EXPECT_EQ(Read(), "{\"id\":\"a\",\"status\":\"ok\",\"data\":{}}\n");
  auto writer = JournalWriter::Open(path_, false, true);
  ASSERT_TRUE(writer.ok());
  ASSERT_TRUE(writer->Append("{\"id\":\"b\",\"status\":\"ok\",\"data\":{}}\n").ok());
  EXPECT_EQ(Read(),
            "{\"id\":\"a\",\"status\":\"ok\",\"data\":{}}\n{\"id\":\"b\",\"status\":\"ok\","
            "\"data\":{}}\n");
}

TEST_F(JournalTest, ATornOnlyLineLeavesAnEmptyFile) {
  Write("{\"id\":\"a\",\"sta");
  auto scan = RecoverJournal(path_);
  ASSERT_TRUE(scan.ok());
  EXPECT_TRUE(scan->dropped_torn_tail);
  EXPECT_EQ(Read(), "");
}

TEST_F(JournalTest, DropsCancelledRecordsSoTheyRunAgain) {
  Write(
      "{\"id\":\"a\",\"status\":\"ok\",\"data\":{}}\n"
      "{\"id\":\"b\",\"status\":\"error\",\"code\":\"cancelled\",\"errors\":[\"cancelled\"]}\n"
      "{\"id\":\"c\",\"status\":\"error\",\"code\":\"provider_unavailable\",\"errors\":[\"down\"]}"
      "\n");
  auto scan = RecoverJournal(path_);
  ASSERT_TRUE(scan.ok()) << scan.status().message();
  EXPECT_EQ(scan->dropped_cancelled, 1u);
  EXPECT_EQ(scan->done.count("\"b\""), 0u);
  EXPECT_EQ(scan->done.count("\"c\""), 1u);
  EXPECT_EQ(Read(),
            "{\"id\":\"a\",\"status\":\"ok\",\"data\":{}}\n"
            "{\"id\":\"c\",\"status\":\"error\",\"code\":\"provider_unavailable\",\"errors\":["
            "\"down\"]}\n");
  EXPECT_NE(::access((path_ + ".resume-tmp").c_str(), F_OK), 0);
}

TEST_F(JournalTest, RefusesAForeignCompleteLine) {
  Write("{\"id\":\"a\",\"status\":\"ok\"}\nnot json at all\n{\"id\":\"b\",\"status\":\"ok\"}\n");
  auto scan = RecoverJournal(path_);
  ASSERT_FALSE(scan.ok());
  EXPECT_NE(scan.status().message().find(":2"), std::string::npos) << scan.status().message();
  Write("{\"prompt\":\"x\"}\n");
  EXPECT_FALSE(RecoverJournal(path_).ok());
}

TEST_F(JournalTest, OpenTruncatesOnlyWhenAsked) {
  Write("old\n");
  {
    auto w = JournalWriter::Open(path_, false, false);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w->Append("new\n").ok());
  }
  EXPECT_EQ(Read(), "old\nnew\n");
  {
    auto w = JournalWriter::Open(path_, true, false);
    ASSERT_TRUE(w.ok());
    ASSERT_TRUE(w->Append("only\n").ok());
  }
  EXPECT_EQ(Read(), "only\n");
}

TEST_F(JournalTest, OpenFailsWithTheReason) {
  auto w = JournalWriter::Open("/nonexistent-dir/x.jsonl", false, false);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.status().message().find("/nonexistent-dir/x.jsonl"), std::string::npos);
}

TEST_F(JournalTest, ResumeThroughASymlinkRewritesItsTargetAndKeepsTheLink) {
  Write(
      "{\"id\":\"a\",\"status\":\"ok\",\"data\":{}}\n"
      "{\"id\":\"b\",\"status\":\"error\",\"code\":\"cancelled\",\"errors\":[]}\n");
  std::string link = path_ + ".link";
  ::unlink(link.c_str());
  ASSERT_EQ(::symlink(path_.c_str(), link.c_str()), 0);
  auto writer = JournalWriter::Open(link, false, false);
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  auto scan = RecoverJournal(link, &*writer);
  ASSERT_TRUE(scan.ok()) << scan.status().message();
  EXPECT_EQ(scan->dropped_cancelled, 1u);
  ASSERT_TRUE(writer->Append("{\"id\":\"b\",\"status\":\"ok\",\"data\":{}}\n").ok());
  struct stat st {};
  ASSERT_EQ(::lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode)) << "the link became a regular file";
  // The real file lost the cancelled record and got the new one: no stale line is left.
  EXPECT_EQ(Read(),
            "{\"id\":\"a\",\"status\":\"ok\",\"data\":{}}\n"
            "{\"id\":\"b\",\"status\":\"ok\",\"data\":{}}\n");
  ::unlink(link.c_str());
}

TEST_F(JournalTest, ADeviceIsWrittenInPlaceAndCannotBeResumed) {
  auto writer = JournalWriter::Open("/dev/null", true, true);  // neither emptied nor synced
  ASSERT_TRUE(writer.ok()) << writer.status().message();
  EXPECT_FALSE(writer->syncs());
  EXPECT_TRUE(writer->Append("{\"id\":1,\"status\":\"ok\"}\n").ok());
  struct stat st {};
  ASSERT_EQ(::stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
  auto scan = RecoverJournal("/dev/null");
  ASSERT_FALSE(scan.ok());
  EXPECT_NE(scan.status().message().find("--resume needs a regular file to continue: /dev/null is "
                                         "a device"),
            std::string::npos)
      << scan.status().message();
}

}  // namespace
}  // namespace structure::batch
