// LineReader: lines of any content up to the bound, a longer line dropped to its end (memory
// stays bounded on input without newlines), line numbers counting every line.
#include "base/line_reader.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <thread>

#include "base/json.h"
#include "base/read_file.h"

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

TEST(ReadFileTest, StopsAtItsLimitAndSaysSo) {
  auto r = ReadFile("/dev/zero", 1000, "the test limit");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
  EXPECT_EQ(r.status().message(),
            "/dev/zero: larger than 1000 bytes (the test limit): stopped reading there");
}

TEST(ReadFileTest, AFileOfExactlyTheLimitIsRead) {
  std::string path = ::testing::TempDir() + "read_file_limit_" + std::to_string(getpid());
  std::FILE* f = std::fopen(path.c_str(), "w");
  ASSERT_NE(f, nullptr);
  std::fputs(std::string(70000, 'a').c_str(), f);
  std::fclose(f);
  auto exact = ReadFile(path, 70000);
  ASSERT_TRUE(exact.ok()) << exact.status().ToString();
  EXPECT_EQ(exact->size(), 70000u);
  EXPECT_FALSE(ReadFile(path, 69999).ok());
  std::remove(path.c_str());
}

}  // namespace
}  // namespace structure
