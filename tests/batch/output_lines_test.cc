// OutputLines: the counts of a batch job are those of the lines that reached OUT whole. A file
// size limit (as a full disk) stops a write part way: the lines before it count, the torn one
// and those after it do not.
#include "batch/output_lines.h"

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <unistd.h>

#include <csignal>

#include "base/json.h"
#include "base/read_file.h"

namespace structure::batch {
namespace {

LineTally Ok() {
  LineTally t;
  t.outcome = pipeline::Outcome::kOk;
  t.input_tokens = 10;
  return t;
}

TEST(OutputLinesTest, CountsEveryLineOfAWriteThatSucceeded) {
  auto out = JournalWriter::Open("/dev/null", false, false);
  ASSERT_TRUE(out.ok());
  OutputLines lines;
  lines.Add({"{\"id\":1}\n", Ok()});
  lines.Add({"{\"id\":2}\n", Ok()});
  BatchCounts counts;
  EXPECT_TRUE(lines.WriteTo(*out, counts).ok());
  EXPECT_EQ(counts.ok, 2u);
  EXPECT_EQ(counts.input_tokens, 20u);
  EXPECT_TRUE(lines.empty());
}

TEST(OutputLinesTest, CountsOnlyTheLinesWrittenWholeBeforeAFailure) {
  std::string path = ::testing::TempDir() + "output_lines_" + std::to_string(getpid()) + ".jsonl";
  ::unlink(path.c_str());
  auto out = JournalWriter::Open(path, false, false);
  ASSERT_TRUE(out.ok());
  // 100 bytes fit: two lines of 40 and the first 20 bytes of the third.
  std::signal(SIGXFSZ, SIG_IGN);
  rlimit before{};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &before), 0);
  rlimit small = before;
  small.rlim_cur = 100;
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
  OutputLines lines;
  std::string line = "{\"id\":\"" + std::string(30, 'x') + "\"}\n";  // 40 bytes
  ASSERT_EQ(line.size(), 40u);
  for (int i = 0; i < 3; ++i) lines.Add({line, Ok()});
  BatchCounts counts;
  Status st = lines.WriteTo(*out, counts);
  setrlimit(RLIMIT_FSIZE, &before);
  std::signal(SIGXFSZ, SIG_DFL);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(counts.ok, 2u);
  EXPECT_EQ(ReadFile(path).value().size(), 100u);
  ::unlink(path.c_str());
}

}  // namespace
}  // namespace structure::batch
