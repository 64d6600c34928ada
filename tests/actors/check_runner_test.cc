// CheckRunner: check commands as child processes (stdin, STRUCTURE_PROMPT, lines, exit status,
// signals, timeouts, output limits), many at once, and Stop with checks under way.
#include "actors/check_runner.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <future>
#include <string>
#include <vector>

namespace structure::actors {
namespace {

CheckVerdict RunOne(CheckRunner& runner, const std::string& command, std::string answer = "{}",
                    std::string prompt = "the prompt", int timeout_ms = 60000) {
  std::promise<CheckVerdict> p;
  runner.Run(CheckCommand{command, timeout_ms}, std::move(answer), std::move(prompt),
             [&p](CheckVerdict v) { p.set_value(std::move(v)); });
  return p.get_future().get();
}

TEST(CheckRunnerTest, NothingPrintedAcceptsAndLinesAreViolations) {
  CheckRunner runner;
  auto ok = RunOne(runner, "cat > /dev/null");
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_TRUE(ok->empty());
  auto lines = RunOne(runner, "printf '/a: too big\\n\\n  \\r\\n/b: missing  \\n'");
  ASSERT_TRUE(lines.ok()) << lines.status().message();
  EXPECT_EQ(*lines, (std::vector<std::string>{"/a: too big", "/b: missing"}));
}

TEST(CheckRunnerTest, TheAnswerIsOnStdinAndThePromptInTheEnvironment) {
  CheckRunner runner;
  auto v = RunOne(runner, "cat; echo; echo \"$STRUCTURE_PROMPT\"", R"({"name":"Ada"})", "Ada, 36");
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_EQ(*v, (std::vector<std::string>{R"({"name":"Ada"})", "Ada, 36"}));
}

TEST(CheckRunnerTest, ALargePromptComesInAFile) {
  CheckRunner runner;
  std::string prompt(300 * 1024, 'p');
  prompt += "END";
  auto v =
      RunOne(runner,
             "test -z \"$STRUCTURE_PROMPT\" && tail -c 3 \"$STRUCTURE_PROMPT_FILE\" && echo && "
             "echo \"$STRUCTURE_PROMPT_FILE\"",
             "{}", prompt);
  ASSERT_TRUE(v.ok()) << v.status().message();
  ASSERT_EQ(v->size(), 2u);
  EXPECT_EQ((*v)[0], "END");
  EXPECT_NE(access((*v)[1].c_str(), F_OK), 0) << "the prompt file is removed afterwards";
}

TEST(CheckRunnerTest, ALargeAnswerThatIsNotReadIsFine) {
  CheckRunner runner;
  std::string big = "\"" + std::string(4 << 20, 'x') + "\"";
  auto v = RunOne(runner, "echo '/x: not read'", big);
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_EQ(*v, std::vector<std::string>{"/x: not read"});
  auto counted = RunOne(runner, "wc -c", big);
  ASSERT_TRUE(counted.ok());
  EXPECT_EQ(counted->at(0), std::to_string(big.size()));
}

TEST(CheckRunnerTest, FailuresSayWhatHappened) {
  CheckRunner runner;
  auto exit3 = RunOne(runner, "echo 'cannot reach the tracker' >&2; exit 3");
  EXPECT_EQ(exit3.status().code(), Code::kFailedPrecondition);
  EXPECT_EQ(exit3.status().message(),
            "check command exited with status 3: cannot reach the tracker");
  auto missing = RunOne(runner, "no-such-check-command-xyz");
  EXPECT_NE(missing.status().message().find("exited with status 127"), std::string::npos)
      << missing.status().message();
  auto crash = RunOne(runner, "kill -SEGV $$");
  EXPECT_EQ(crash.status().message(), "check command crashed (signal 11, SIGSEGV)");
  auto chatty = RunOne(runner, "yes 'line'");
  EXPECT_NE(chatty.status().message().find("printed more than 1048576 bytes"), std::string::npos)
      << chatty.status().message();
}

// Whether a live process runs exactly `argv0 arg` (from /proc/*/cmdline; zombies have none).
// A process that exits while it is being looked at (other tests run beside this one) is not
// running: its cmdline reads as an error (ESRCH), which istreambuf_iterator would throw.
bool ProcessRuns(const std::string& argv0, const std::string& arg) {
  std::string want = argv0 + '\0' + arg + '\0';
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/proc", ec)) {
    int fd = open((entry.path() / "cmdline").c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) continue;
    std::string cmdline;
    char buf[256];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0) cmdline.append(buf, static_cast<size_t>(n));
    close(fd);
    if (n == 0 && cmdline == want) return true;
  }
  return false;
}

TEST(CheckRunnerTest, AHangingCheckIsKilledWithItsChildren) {
  CheckRunner runner;
  std::string seconds = "30." + std::to_string(getpid());  // unique among running processes
  auto hang = RunOne(runner, "(sleep " + seconds + ") & sleep " + seconds, "{}", "p", 300);
  EXPECT_EQ(hang.status().message(), "check command timed out after 300 ms and was killed");
  // The whole process group goes, the background job too (SIGKILL lands asynchronously: wait
  // for it generously rather than for a fixed time).
  bool gone = false;
  for (int i = 0; i < 2000 && !gone; ++i) {
    gone = !ProcessRuns("sleep", seconds);
    if (!gone) usleep(10000);
  }
  EXPECT_TRUE(gone) << "a sleep " << seconds << " of the killed check is still running";
}

TEST(CheckRunnerTest, ManyChecksRunAtOnceAndEachIsAnsweredOnce) {
  CheckRunner::Options options;
  options.max_running = 8;
  CheckRunner runner(options);
  constexpr int kChecks = 60;
  std::vector<std::promise<CheckVerdict>> done(kChecks);
  for (int i = 0; i < kChecks; ++i) {
    runner.Run(CheckCommand{"sleep 0.05; cat", 60000}, "{\"i\":" + std::to_string(i) + "}", "p",
               [&done, i](CheckVerdict v) { done[i].set_value(std::move(v)); });
  }
  for (int i = 0; i < kChecks; ++i) {
    auto v = done[i].get_future().get();
    ASSERT_TRUE(v.ok()) << i << ": " << v.status().message();
    EXPECT_EQ(v->at(0), "{\"i\":" + std::to_string(i) + "}");
  }
}

TEST(CheckRunnerTest, StopAnswersRunningAndQueuedChecksCancelled) {
  CheckRunner::Options options;
  options.max_running = 1;
  CheckRunner runner(options);
  std::promise<CheckVerdict> running, queued;
  runner.Run(CheckCommand{"sleep 30", 60000}, "{}", "p",
             [&](CheckVerdict v) { running.set_value(std::move(v)); });
  runner.Run(CheckCommand{"true", 60000}, "{}", "p",
             [&](CheckVerdict v) { queued.set_value(std::move(v)); });
  runner.Stop();
  EXPECT_EQ(running.get_future().get().status().code(), Code::kCancelled);
  auto q = queued.get_future().get();
  EXPECT_TRUE(q.status().code() == Code::kCancelled || q.ok()) << q.status().message();
  std::promise<CheckVerdict> late;
  runner.Run(CheckCommand{"true", 1000}, "{}", "p",
             [&](CheckVerdict v) { late.set_value(std::move(v)); });
  EXPECT_EQ(late.get_future().get().status().code(), Code::kCancelled);
}

TEST(CheckRunnerTest, InvalidUtf8InTheOutputIsReplaced) {
  CheckRunner runner;
  auto v = RunOne(runner, "printf '/a: caf\\351\\n'");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->at(0), "/a: caf\xEF\xBF\xBD");
}

}  // namespace
}  // namespace structure::actors
