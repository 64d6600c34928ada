// The rules for every output file (base/output_file.h), one test per kind of file: a regular
// file replaced atomically, a symbolic link followed and kept, a FIFO and a character device
// written in place, a directory, a socket and a link loop refused with their type named.
// /dev/null is only written where it stays a device; nothing here may replace it.
#include "base/output_file.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <thread>

#include "base/json.h"
#include "base/read_file.h"
#include "tests/support/scratch_dir.h"

namespace structure {
namespace {

class OutputFileTest : public testing::ScratchDirTest {
 protected:
  OutputFileTest() : ScratchDirTest("output_file") {}
  static std::string Read(const std::string& path) {
    auto text = ReadFile(path);
    return text.ok() ? *text : "<" + text.status().message() + ">";
  }
  static mode_t Mode(const std::string& path) {
    struct stat st {};
    return ::lstat(path.c_str(), &st) == 0 ? st.st_mode : 0;
  }
};

TEST_F(OutputFileTest, ANewFileIsCreated) {
  ASSERT_TRUE(WriteOutputFile(Path("new.json"), "one\n").ok());
  EXPECT_EQ(Read(Path("new.json")), "one\n");
  EXPECT_TRUE(S_ISREG(Mode(Path("new.json"))));
}

TEST_F(OutputFileTest, ARegularFileIsReplacedWholeKeepingItsPermissions) {
  ASSERT_TRUE(WriteOutputFile(Path("f.json"), "a long first version\n").ok());
  ASSERT_EQ(chmod(Path("f.json").c_str(), 0600), 0);
  struct stat before {};
  ASSERT_EQ(stat(Path("f.json").c_str(), &before), 0);
  ASSERT_TRUE(WriteOutputFile(Path("f.json"), "short\n").ok());
  EXPECT_EQ(Read(Path("f.json")), "short\n");
  struct stat after {};
  ASSERT_EQ(stat(Path("f.json").c_str(), &after), 0);
  EXPECT_NE(before.st_ino, after.st_ino) << "replaced by a rename, not rewritten in place";
  EXPECT_EQ(after.st_mode & 07777, 0600u);
  // No temporary file is left beside it.
  std::string ls = "test $(ls -A '" + dir_ + "' | wc -l) -eq 1";
  EXPECT_EQ(std::system(ls.c_str()), 0);
}

TEST_F(OutputFileTest, ASymbolicLinkIsFollowedAndStaysALink) {
  ASSERT_EQ(mkdir(Path("real").c_str(), 0755), 0);
  ASSERT_TRUE(WriteOutputFile(Path("real/target.json"), "old\n").ok());
  ASSERT_EQ(symlink("real/target.json", Path("link.json").c_str()), 0);  // relative to its folder
  ASSERT_TRUE(WriteOutputFile(Path("link.json"), "new\n").ok());
  EXPECT_TRUE(S_ISLNK(Mode(Path("link.json"))));
  EXPECT_EQ(Read(Path("real/target.json")), "new\n");
}

TEST_F(OutputFileTest, ALinkToAFileNotThereYetCreatesItsTarget) {
  ASSERT_EQ(symlink(Path("later.json").c_str(), Path("link.json").c_str()), 0);
  ASSERT_TRUE(WriteOutputFile(Path("link.json"), "x\n").ok());
  EXPECT_TRUE(S_ISLNK(Mode(Path("link.json"))));
  EXPECT_EQ(Read(Path("later.json")), "x\n");
}

TEST_F(OutputFileTest, AFifoIsWrittenInPlace) {
  ASSERT_EQ(mkfifo(Path("p").c_str(), 0644), 0);
  std::string got;
  std::thread reader([&] { got = Read(Path("p")); });
  Status st = WriteOutputFile(Path("p"), "through the pipe\n");
  reader.join();
  EXPECT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(got, "through the pipe\n");
  EXPECT_TRUE(S_ISFIFO(Mode(Path("p"))));
}

TEST_F(OutputFileTest, AFifoNobodyReadsIsAnErrorAfterTheWait) {
  ASSERT_EQ(mkfifo(Path("p").c_str(), 0644), 0);
  auto target = ResolveOutput(Path("p"));
  ASSERT_TRUE(target.ok());
  EXPECT_EQ(target->kind, OutputKind::kFifo);
  auto fd = OpenForAppend(*target, 0, std::chrono::milliseconds(50));
  ASSERT_FALSE(fd.ok());
  EXPECT_NE(fd.status().message().find("a FIFO that no process reads"), std::string::npos)
      << fd.status().message();
}

// A reader that does not read: a non-blocking write waits for it, and stops when told to.
TEST_F(OutputFileTest, AWriteTheReaderDoesNotTakeStopsWhenToldTo) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  SetNonBlocking(fds[1]);
  std::atomic<bool> stop{false};
  std::thread later([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    stop = true;
  });
  std::string data(1 << 20, 'x');  // more than a pipe holds
  size_t written = 0;
  Status st = WriteAll(fds[1], data, "p", &written, [&] { return stop.load(); });
  later.join();
  EXPECT_EQ(st.code(), Code::kCancelled);
  EXPECT_EQ(st.message(), "cannot write p: stopped while its reader was not reading");
  EXPECT_GT(written, 0u);
  EXPECT_LT(written, data.size());
  // A reader that reads again is written to whole: nothing is cancelled without being told.
  std::string got;
  std::thread reader([&] {
    char chunk[65536];
    for (ssize_t n; (n = ::read(fds[0], chunk, sizeof chunk)) > 0;) got.append(chunk, n);
  });
  Status rest = WriteAll(fds[1], data, "p", nullptr, [] { return false; });
  ::close(fds[1]);
  reader.join();
  ::close(fds[0]);
  EXPECT_TRUE(rest.ok()) << rest.ToString();
  EXPECT_EQ(got.size(), written + data.size());
}

TEST_F(OutputFileTest, DevNullIsWrittenAndStaysACharacterDevice) {
  ASSERT_TRUE(WriteOutputFile("/dev/null", "nothing\n").ok());
  EXPECT_TRUE(S_ISCHR(Mode("/dev/null")));
  auto target = ResolveOutput("/dev/null");
  ASSERT_TRUE(target.ok());
  EXPECT_TRUE(target->in_place());
  // A link to it is followed to the device, which is written in place too.
  ASSERT_EQ(symlink("/dev/null", Path("null").c_str()), 0);
  ASSERT_TRUE(WriteOutputFile(Path("null"), "nothing\n").ok());
  EXPECT_TRUE(S_ISLNK(Mode(Path("null"))));
  EXPECT_TRUE(S_ISCHR(Mode("/dev/null")));
}

TEST_F(OutputFileTest, ADirectoryIsRefusedByName) {
  Status st = WriteOutputFile(dir_, "x");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Code::kInvalidArgument);
  EXPECT_NE(st.message().find("is a directory"), std::string::npos) << st.message();
}

TEST_F(OutputFileTest, AMissingFolderIsNamedWithWhatToDo) {
  Status st = WriteOutputFile(Path("no/such/out.json"), "x");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Code::kInvalidArgument);
  std::string folder = Path("no/such");
  EXPECT_EQ(st.message(), Path("no/such/out.json") + ": the folder " + folder +
                              " does not exist: create it (mkdir -p " + folder +
                              ") or give a path in an existing folder");
  EXPECT_EQ(Mode(Path("no")), 0u) << "no folder is made";
  // A link to a file in a missing folder names both.
  ASSERT_EQ(::symlink("gone/out.json", Path("link.json").c_str()), 0);
  auto linked = ResolveOutput(Path("link.json"));
  ASSERT_FALSE(linked.ok());
  EXPECT_NE(linked.status().message().find("link.json (-> " + Path("gone/out.json") +
                                           "): the folder " + Path("gone") + " does not exist"),
            std::string::npos)
      << linked.status().message();
}

TEST_F(OutputFileTest, AFileWhereAFolderShouldBeIsNamed) {
  ASSERT_TRUE(WriteOutputFile(Path("plain"), "x").ok());
  Status st = WriteOutputFile(Path("plain/out.json"), "x");
  ASSERT_FALSE(st.ok());
  EXPECT_EQ(st.code(), Code::kInvalidArgument);
  EXPECT_EQ(st.message(),
            Path("plain/out.json") + ": " + Path("plain") +
                " is a regular file, not a folder: give a path in an existing folder");
  st = WriteOutputFile(Path("plain/deeper/out.json"), "x");
  EXPECT_NE(st.message().find("is a file, not a folder"), std::string::npos) << st.message();
}

TEST_F(OutputFileTest, ASocketIsRefusedByName) {
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::string path = Path("s");
  ASSERT_LT(path.size(), sizeof addr.sun_path);
  std::copy(path.begin(), path.end(), addr.sun_path);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr), 0);
  Status st = WriteOutputFile(path, "x");
  close(fd);
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("is a socket"), std::string::npos) << st.message();
  EXPECT_TRUE(S_ISSOCK(Mode(path)));
}

TEST_F(OutputFileTest, ALinkLoopIsRefused) {
  ASSERT_EQ(symlink(Path("b").c_str(), Path("a").c_str()), 0);
  ASSERT_EQ(symlink(Path("a").c_str(), Path("b").c_str()), 0);
  Status st = WriteOutputFile(Path("a"), "x");
  ASSERT_FALSE(st.ok());
  EXPECT_NE(st.message().find("symbolic links in a row"), std::string::npos) << st.message();
}

TEST_F(OutputFileTest, AppendingKeepsWhatIsThere) {
  ASSERT_TRUE(WriteOutputFile(Path("log"), "first\n").ok());
  auto target = ResolveOutput(Path("log"));
  ASSERT_TRUE(target.ok());
  auto fd = OpenForAppend(*target);
  ASSERT_TRUE(fd.ok());
  size_t written = 0;
  EXPECT_TRUE(WriteAll(*fd, "second\n", "log", &written).ok());
  EXPECT_EQ(written, 7u);
  close(*fd);
  EXPECT_EQ(Read(Path("log")), "first\nsecond\n");
}

TEST_F(OutputFileTest, AFullDeviceReportsTheBytesWrittenBeforeTheFailure) {
  int fd = open("/dev/full", O_WRONLY);
  if (fd < 0) GTEST_SKIP() << "no /dev/full";
  size_t written = 99;
  Status st = WriteAll(fd, "abc", "/dev/full", &written);
  close(fd);
  EXPECT_FALSE(st.ok());
  EXPECT_EQ(written, 0u);
  EXPECT_NE(st.message().find("cannot write /dev/full"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace structure
