// LineReader: lines of any content up to the bound, a longer line reported when it passes the
// bound and dropped to its end (memory stays bounded on input without newlines, and the caller
// gets control back regularly), line numbers counting every line.
#include "base/line_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <string>
#include <thread>

#include "base/json.h"

namespace structure {
namespace {

// A stream over `text` (fmemopen keeps NULs).
std::FILE* Stream(std::string& text) { return fmemopen(text.data(), text.size(), "r"); }

TEST(LineReaderTest, ReadsLinesWithTheirNumbers) {
  std::string text = "one\n\ntwo\r\nlast";
  std::FILE* in = Stream(text);
  LineReader r(in, 100);
  ASSERT_EQ(r.Next(), LineReader::Got::kLine);
  EXPECT_EQ(r.line(), "one");
  EXPECT_EQ(r.line_no(), 1u);
  EXPECT_EQ(r.bytes(), 4u);
  ASSERT_EQ(r.Next(), LineReader::Got::kLine);
  EXPECT_EQ(r.line(), "");
  ASSERT_EQ(r.Next(), LineReader::Got::kLine);
  EXPECT_EQ(r.line(), "two\r");
  EXPECT_EQ(r.line_no(), 3u);
  ASSERT_EQ(r.Next(), LineReader::Got::kLine);  // no newline at the end
  EXPECT_EQ(r.line(), "last");
  EXPECT_EQ(r.line_no(), 4u);
  EXPECT_EQ(r.Next(), LineReader::Got::kEnd);
  std::fclose(in);
}

TEST(LineReaderTest, ALineOverTheBoundIsDroppedToItsEnd) {
  std::string text = "short\n" + std::string(1000, 'x') + "\nnext\n" + std::string(50, '\0');
  std::FILE* in = Stream(text);
  LineReader r(in, 100);
  ASSERT_EQ(r.Next(), LineReader::Got::kLine);
  ASSERT_EQ(r.Next(), LineReader::Got::kTooLong);
  EXPECT_EQ(r.line_no(), 2u);
  EXPECT_EQ(r.bytes(), 101u);  // reported when it passed the bound
  ASSERT_EQ(r.Next(), LineReader::Got::kLine);
  EXPECT_EQ(r.line(), "next");
  EXPECT_EQ(r.line_no(), 3u);
  ASSERT_EQ(r.Next(), LineReader::Got::kLine);  // NULs are bytes like any other
  EXPECT_EQ(r.line().size(), 50u);
  EXPECT_EQ(r.Next(), LineReader::Got::kEnd);
  std::fclose(in);
}

TEST(LineReaderTest, AHugeLineFromAPipeIsDroppedAndTheNextOneRead) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::thread writer([fd = fds[1]] {
    std::string chunk(1 << 16, '\0');
    for (int i = 0; i < 160; ++i) {  // 10 MiB without a newline, as from /dev/zero
      if (write(fd, chunk.data(), chunk.size()) < 0) break;
    }
    const char tail[] = "\n{\"ok\":1}\n";
    (void)!write(fd, tail, sizeof tail - 1);
    close(fd);
  });
  std::FILE* in = fdopen(fds[0], "r");
  LineReader r(in, 4096);
  EXPECT_EQ(r.Next(), LineReader::Got::kTooLong);
  EXPECT_EQ(r.bytes(), 4097u);
  LineReader::Got got;
  int returns = 0;
  while ((got = r.Next()) == LineReader::Got::kInterrupted) ++returns;
  EXPECT_GE(returns, 150);  // control came back every 64 KiB of the 10 MiB dropped
  ASSERT_EQ(got, LineReader::Got::kLine);
  EXPECT_EQ(r.line(), "{\"ok\":1}");
  EXPECT_EQ(r.line_no(), 2u);
  EXPECT_EQ(r.Next(), LineReader::Got::kEnd);
  std::fclose(in);
  writer.join();
}

// Input that never ends a line and never ends (`yes | tr -d '\n'`): the reader reports the line
// once it passes the bound, then returns every kReturnEvery bytes, so that a caller can stop.
TEST(LineReaderTest, InputThatNeverEndsALineGivesControlBack) {
  std::signal(SIGPIPE, SIG_IGN);  // the writer ends on EPIPE once the reader is closed
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  std::thread writer([fd = fds[1]] {
    std::string chunk(1 << 16, 'y');
    while (write(fd, chunk.data(), chunk.size()) > 0) {
    }
    close(fd);
  });
  std::FILE* in = fdopen(fds[0], "r");
  LineReader r(in, 1 << 20);
  int interrupted = 0;
  LineReader::Got got;
  while ((got = r.Next()) == LineReader::Got::kInterrupted) ++interrupted;
  EXPECT_EQ(got, LineReader::Got::kTooLong);  // at 1 MiB + 1, not at a newline that never comes
  EXPECT_EQ(r.bytes(), (size_t{1} << 20) + 1);
  EXPECT_EQ(interrupted, 16);  // a return every 64 KiB while the line grew
  for (int i = 0; i < 100; ++i) ASSERT_EQ(r.Next(), LineReader::Got::kInterrupted);
  std::fclose(in);  // the writer's next write fails: it ends
  writer.join();
}

}  // namespace
}  // namespace structure
