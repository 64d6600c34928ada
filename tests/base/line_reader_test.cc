// LineReader: lines of any content up to the bound, a longer line dropped to its end (memory
// stays bounded on input without newlines), line numbers counting every line.
#include "base/line_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>

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
  EXPECT_EQ(r.bytes(), 1001u);
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
  EXPECT_EQ(r.bytes(), (size_t{10} << 20) + 1);
  ASSERT_EQ(r.Next(), LineReader::Got::kLine);
  EXPECT_EQ(r.line(), "{\"ok\":1}");
  EXPECT_EQ(r.Next(), LineReader::Got::kEnd);
  std::fclose(in);
  writer.join();
}

}  // namespace
}  // namespace structure
