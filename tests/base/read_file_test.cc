// Reading a file a user named (base/read_file.h): regular files bounded, a directory or socket
// refused with its type named, and a FIFO read as it is written but never waited for forever
// when no process writes it.
#include "base/read_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <thread>

#include "tests/support/scratch_dir.h"

namespace structure {
namespace {

using std::chrono::milliseconds;

class ReadFileTest : public testing::ScratchDirTest {
 protected:
  ReadFileTest() : ScratchDirTest("read_file") {}
  std::string MakeFifo() const {
    std::string p = Path("p");
    EXPECT_EQ(mkfifo(p.c_str(), 0644), 0);
    return p;
  }
  // Opens `path` for writing (blocking until a reader is there), waits `before`, writes `text`.
  static void WriteLater(const std::string& path, milliseconds before, const std::string& text) {
    int fd = ::open(path.c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    std::this_thread::sleep_for(before);
    ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
    ::close(fd);
  }
};

TEST_F(ReadFileTest, ARegularFileIsReadWhole) {
  std::ofstream(Path("f")) << "{\"a\":1}\n";
  auto r = ReadFile(Path("f"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, "{\"a\":1}\n");
}

TEST_F(ReadFileTest, AMissingFileIsNotFoundWithTheReason) {
  auto r = ReadFile(Path("missing.json"));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kNotFound);
  EXPECT_EQ(r.status().message(),
            "cannot open " + Path("missing.json") + ": No such file or directory");
}

TEST_F(ReadFileTest, ALinkToNothingSaysWhereItPoints) {
  ASSERT_EQ(symlink("/nonexistent/schema.json", Path("link").c_str()), 0);
  auto text = ReadFile(Path("link"));
  ASSERT_FALSE(text.ok());
  EXPECT_EQ(text.status().code(), Code::kNotFound);
  EXPECT_EQ(text.status().message(),
            "cannot open " + Path("link") +
                ": No such file or directory (a link to /nonexistent/schema.json, which does not "
                "exist)");
}

TEST_F(ReadFileTest, StopsAtItsLimitAndSaysSo) {
  auto r = ReadFile("/dev/zero", 1000, "the test limit");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kInvalidArgument);
  EXPECT_EQ(r.status().message(),
            "/dev/zero: larger than 1000 bytes (the test limit): stopped reading there");
}

TEST_F(ReadFileTest, AFileOfExactlyTheLimitIsRead) {
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

TEST_F(ReadFileTest, ADirectoryAndASocketAreRefusedByType) {
  auto dir = ReadFile(dir_);
  ASSERT_FALSE(dir.ok());
  EXPECT_EQ(dir.status().code(), Code::kInvalidArgument);
  EXPECT_NE(dir.status().message().find("is a directory, not a file"), std::string::npos);

  int s = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(s, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::string path = Path("s");
  ASSERT_LT(path.size(), sizeof addr.sun_path);
  std::memcpy(addr.sun_path, path.c_str(), path.size() + 1);
  ASSERT_EQ(::bind(s, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  auto sock = ReadFile(path);
  ::close(s);
  ASSERT_FALSE(sock.ok());
  EXPECT_EQ(sock.status().message(), path + " is a socket, not a file");
}

TEST_F(ReadFileTest, AFifoNobodyWritesIsAnErrorAfterTheWait) {
  std::string p = MakeFifo();
  auto start = std::chrono::steady_clock::now();
  auto r = ReadFile(p, kMaxFileBytes, "the limit", milliseconds(100));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kUnavailable);
  EXPECT_EQ(r.status().message(), p + " is a FIFO that no process writes: start its writer first");
  EXPECT_GE(std::chrono::steady_clock::now() - start, milliseconds(100));
}

TEST_F(ReadFileTest, AFifoWhoseWriterComesWithinTheWaitIsRead) {
  std::string p = MakeFifo();
  std::thread writer([&] {
    std::this_thread::sleep_for(milliseconds(150));
    WriteLater(p, milliseconds(0), "late but there\n");
  });
  auto r = ReadFile(p, kMaxFileBytes, "the limit", milliseconds(5000));
  writer.join();
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, "late but there\n");
}

// A writer that holds the FIFO open is waited for as long as it takes, as stdin is: the bound
// is on a FIFO nobody writes, not on a slow writer.
TEST_F(ReadFileTest, AFifoWithASlowWriterIsReadPastTheWait) {
  std::string p = MakeFifo();
  std::thread writer([&] { WriteLater(p, milliseconds(400), "slow\n"); });
  auto r = ReadFile(p, kMaxFileBytes, "the limit", milliseconds(50));
  writer.join();
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, "slow\n");
}

TEST_F(ReadFileTest, AFifoWrittenAndClosedEmptyIsAnEmptyFile) {
  std::string p = MakeFifo();
  std::thread writer([&] { WriteLater(p, milliseconds(0), ""); });
  auto r = ReadFile(p, kMaxFileBytes, "the limit", milliseconds(5000));
  writer.join();
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(*r, "");
}

// The byte taken while looking for a writer is handed back first: nothing is lost.
TEST_F(ReadFileTest, OpenForReadingKeepsEveryByteOfAFifo) {
  std::string p = MakeFifo();
  std::string text(200000, 'y');  // more than a pipe holds: the writer blocks until it is read
  std::thread writer([&] { WriteLater(p, milliseconds(50), text); });
  auto opened = OpenForReading(p, milliseconds(5000));
  ASSERT_TRUE(opened.ok()) << opened.status().ToString();
  std::string got = opened->head;
  char chunk[4096];
  for (ssize_t n; (n = ::read(opened->fd, chunk, sizeof chunk)) > 0;) got.append(chunk, n);
  ::close(opened->fd);
  writer.join();
  EXPECT_EQ(got, text);
}

}  // namespace
}  // namespace structure
