// `structure batch` at its edges, end to end against `structure sim`: the second Ctrl-C, SIGTERM,
// two jobs on one output, the output being the input, an output written from another input, a
// disk that fills up, and outputs that are links, FIFOs and devices.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <fstream>
#include <thread>

#include "base/json.h"
#include "base/read_file.h"
#include "tests/server/http_client.h"
#include "tests/support/sim_process.h"

namespace structure {
namespace {

// The file's text, or "" when it cannot be read.
std::string Slurp(const std::string& path) {
  auto text = ReadFile(path);
  return text.ok() ? *text : "";
}

const std::string kData = std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/batch/";

class BatchEdgesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    sim_ = testing::StartSim(STRUCTURE_BINARY, {"--scenario", kData + "scenario.json"}, &err);
    ASSERT_NE(sim_, nullptr) << err;
    dir_ = ::testing::TempDir() + "batch_edges_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
    mkdir(dir_.c_str(), 0755);
  }
  void TearDown() override {
    sim_.reset();
    std::string rm = "rm -rf '" + dir_ + "'";
    EXPECT_EQ(std::system(rm.c_str()), 0);
  }

  std::unique_ptr<testing::ChildProcess> Batch(std::vector<std::string> args,
                                               const std::string& err,
                                               const std::string& base_url = "") {
    std::vector<std::string> argv = {
        STRUCTURE_BINARY, "batch",
        "--base-url",     base_url.empty() ? sim_->base_url() : base_url,
        "--schema",       kData + "schema.json"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::string error;
    auto child = testing::ChildProcess::Spawn(argv, {"", dir_ + "stdout", dir_ + err}, &error);
    EXPECT_TRUE(child) << error;
    return child;
  }

  int64_t SimRequests() const {
    auto stats = ParseJson(testing::Http("GET", sim_->base_url() + "/stats").body);
    const Json* requests = stats.ok() ? stats->find("requests") : nullptr;
    const Json* total = requests ? requests->find("total") : nullptr;
    return total ? total->as_int() : -1;
  }

  // Waits until the simulator has received `n` calls (or the job ended).
  void WaitForCalls(testing::ChildProcess& job, int64_t n) const {
    while (!job.Exited() && SimRequests() < n)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }

  std::string Err(const std::string& name) const { return Slurp(dir_ + name); }

  // Ctrl-C twice, the second only once the first was taken (two at once would merge into one).
  void CtrlCTwice(testing::ChildProcess& job, const std::string& err) const {
    job.Signal(SIGINT);
    while (!job.Exited() && Err(err).find("stopping") == std::string::npos) {
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    job.Signal(SIGINT);
  }

  // `n` lines; the first `stuck` are answered only after ten minutes.
  std::string WriteInput(int n, int stuck, const std::string& prefix = "r") {
    std::string path = dir_ + prefix + ".jsonl";
    std::ofstream f(path);
    for (int i = 0; i < n; ++i) {
      f << "{\"id\": \"" << prefix << i << "\", \"prompt\": \""
        << (i < stuck ? "CASE-STUCK " : "CASE-OK ") << i << "\"}\n";
    }
    return path;
  }

  static std::vector<Json> Lines(const std::string& path) {
    std::vector<Json> out;
    std::string text = Slurp(path);
    EXPECT_TRUE(text.empty() || text.back() == '\n') << "torn last line";
    for (size_t pos = 0; pos < text.size();) {
      size_t nl = text.find('\n', pos);
      auto rec = ParseJson(std::string_view(text).substr(pos, nl - pos));
      EXPECT_TRUE(rec.ok()) << rec.status().message();
      if (rec.ok()) out.push_back(std::move(*rec));
      pos = nl + 1;
    }
    return out;
  }

  std::unique_ptr<testing::ChildProcess> sim_;
  std::string dir_;
};

// The second Ctrl-C used to hang forever (~Engine on the writer thread). Now the calls in flight
// are cancelled and journaled as such, the job exits 130, and --resume runs exactly those again.
TEST_F(BatchEdgesTest, SecondCtrlCCancelsTheCallsInFlightAndResumeRedoesThem) {
  std::string in = WriteInput(40, 8), out = dir_ + "out.jsonl";
  auto job = Batch({in, "-o", out, "--concurrency", "8"}, "err1");
  WaitForCalls(*job, 8);  // all eight slots hold a call that will not end for ten minutes
  CtrlCTwice(*job, "err1");
  int code = job->WaitFor(120);
  if (code < 0) job->Signal(SIGKILL);
  ASSERT_EQ(code, 130) << Err("err1");
  std::vector<Json> first = Lines(out);
  ASSERT_EQ(first.size(), 8u) << Err("err1");
  for (const Json& rec : first)
    EXPECT_EQ(rec.find("code")->as_string(), "cancelled") << ToJson(rec);

  // Resume against a simulator that answers everything at once: nothing lost, nothing twice.
  std::string err;
  auto plain = testing::StartSim(STRUCTURE_BINARY, {}, &err);
  ASSERT_NE(plain, nullptr) << err;
  auto resumed = Batch({in, "-o", out, "--resume"}, "err2", plain->base_url());
  EXPECT_EQ(resumed->Wait(), 0) << Err("err2");
  EXPECT_NE(Err("err2").find("8 cancelled records of " + out + " run again"), std::string::npos)
      << Err("err2");
  std::vector<Json> all = Lines(out);
  std::vector<std::string> ids;
  for (const Json& rec : all) {
    EXPECT_EQ(rec.find("status")->as_string(), "ok") << ToJson(rec);
    ids.push_back(rec.find("id")->as_string());
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(std::unique(ids.begin(), ids.end()), ids.end());
  EXPECT_EQ(ids.size(), 40u);
}

// Every line was read before the Ctrl-Cs: the cancelled records still make the job interrupted.
TEST_F(BatchEdgesTest, SecondCtrlCAfterTheLastLineWasReadExits130) {
  std::string in = WriteInput(3, 3), out = dir_ + "out.jsonl";
  auto job = Batch({in, "-o", out, "--concurrency", "8"}, "err");
  WaitForCalls(*job, 3);
  CtrlCTwice(*job, "err");
  int code = job->WaitFor(120);
  if (code < 0) job->Signal(SIGKILL);
  EXPECT_EQ(code, 130) << Err("err");
  EXPECT_NE(Err("err").find("interrupted (rerun with --resume to finish)"), std::string::npos)
      << Err("err");
  EXPECT_EQ(Lines(out).size(), 3u);
}

// Two jobs on one output used to interleave duplicates; the second now stops at once.
TEST_F(BatchEdgesTest, ASecondJobOnTheSameOutputIsRefusedNamingTheHolder) {
  std::string in = WriteInput(20, 4), out = dir_ + "out.jsonl";
  auto first = Batch({in, "-o", out, "--concurrency", "4"}, "err1");
  WaitForCalls(*first, 4);
  ASSERT_FALSE(first->Exited()) << Err("err1");
  for (std::vector<std::string> extra : {std::vector<std::string>{"--resume"}, {"--overwrite"}}) {
    std::vector<std::string> args = {in, "-o", out};
    args.insert(args.end(), extra.begin(), extra.end());
    auto second = Batch(args, "err2");
    EXPECT_EQ(second->Wait(), 2) << extra[0];
    EXPECT_NE(Err("err2").find(out + " is in use by another structure batch (process " +
                               std::to_string(first->pid()) + ")"),
              std::string::npos)
        << Err("err2");
  }
  first->Signal(SIGKILL);
  first->Wait();
  EXPECT_TRUE(Lines(out).empty());  // --overwrite did not empty it under the first job
}

TEST_F(BatchEdgesTest, TheOutputCannotBeTheInputEvenThroughALink) {
  std::string in = WriteInput(3, 0);
  std::string before = ReadFile(in).value();
  std::string hard = dir_ + "hard.jsonl", soft = dir_ + "soft.jsonl";
  ASSERT_EQ(link(in.c_str(), hard.c_str()), 0);
  ASSERT_EQ(symlink(in.c_str(), soft.c_str()), 0);
  for (const std::string& out : {in, hard, soft}) {
    auto job = Batch({in, "-o", out, "--overwrite"}, "err");
    EXPECT_EQ(job->Wait(), 2) << out;
    EXPECT_NE(Err("err").find(out + " is the input file " + in), std::string::npos) << Err("err");
  }
  // stdin redirected from the output file is caught too.
  std::string error;
  auto job =
      testing::ChildProcess::Spawn({STRUCTURE_BINARY, "batch", "--base-url", sim_->base_url(),
                                    "--schema", kData + "schema.json", "-o", in, "--overwrite"},
                                   {in, dir_ + "stdout", dir_ + "err"}, &error);
  ASSERT_TRUE(job) << error;
  EXPECT_EQ(job->Wait(), 2);
  EXPECT_NE(Err("err").find("is the input file (stdin)"), std::string::npos) << Err("err");
  EXPECT_EQ(ReadFile(in).value(), before);
}

TEST_F(BatchEdgesTest, AnOutputWrittenFromAnotherInputIsNotResumed) {
  std::string a = WriteInput(3, 0, "a"), b = WriteInput(3, 0, "b"), out = dir_ + "out.jsonl";
  ASSERT_EQ(Batch({a, "-o", out}, "err1")->Wait(), 0) << Err("err1");
  auto other = Batch({b, "-o", out, "--resume"}, "err2");
  EXPECT_EQ(other->Wait(), 2);
  EXPECT_NE(Err("err2").find(out + " was written from " + a + ", this run reads " + b),
            std::string::npos)
      << Err("err2");
  EXPECT_NE(Err("err2").find("--overwrite"), std::string::npos);
  EXPECT_EQ(Lines(out).size(), 3u);
  // The same input, grown, resumes.
  std::ofstream(a, std::ios::app) << "{\"id\": \"a3\", \"prompt\": \"CASE-OK 3\"}\n";
  auto grown = Batch({a, "-o", out, "--resume"}, "err3");
  EXPECT_EQ(grown->Wait(), 0) << Err("err3");
  EXPECT_NE(Err("err3").find("(3 resumed)"), std::string::npos) << Err("err3");
  EXPECT_EQ(Lines(out).size(), 4u);
}

TEST_F(BatchEdgesTest, ConcurrencyAboveTheProviderCapIsSaidAndSummarized) {
  std::string in = WriteInput(2, 0), cfg = dir_ + "c.toml";
  std::ofstream(cfg)
      << "[providers.p]\nkind = \"openai\"\n[providers.p.limits]\nmax_concurrency = 3\n";
  auto job = Batch({in, "--config", cfg, "--concurrency", "50"}, "err");
  EXPECT_EQ(job->Wait(), 0) << Err("err");
  std::string err = Err("err");
  EXPECT_NE(
      err.find("--concurrency 50 is above providers.p.limits.max_concurrency = 3: at most 3 calls"),
      std::string::npos)
      << err;
  EXPECT_NE(err.find(", at most 3 in flight (providers.p.limits.max_concurrency)"),
            std::string::npos)
      << err;
  auto uncapped = Batch({in, "--config", cfg, "--concurrency", "2"}, "err2");
  EXPECT_EQ(uncapped->Wait(), 0);
  EXPECT_EQ(Err("err2").find("is above"), std::string::npos);
  EXPECT_NE(Err("err2").find(", at most 2 in flight"), std::string::npos) << Err("err2");
}

// SIGTERM (a container stop, `kill`) used to end the job at once: no summary, in-flight results
// lost. It is the first Ctrl-C now: reading stops, the calls in flight end and are written.
TEST_F(BatchEdgesTest, SigtermStopsReadingAndKeepsTheCallsInFlight) {
  std::string in = dir_ + "slow.jsonl", out = dir_ + "out.jsonl";
  {
    std::ofstream f(in);
    for (int i = 0; i < 200; ++i)
      f << "{\"id\": " << i << ", \"prompt\": \"CASE-SLOW " << i << "\"}\n";
  }
  auto job = Batch({in, "-o", out, "--concurrency", "4"}, "err");
  WaitForCalls(*job, 4);  // four calls that take 300 ms each are on the wire
  job->Signal(SIGTERM);
  int code = job->WaitFor(120);
  if (code < 0) job->Signal(SIGKILL);
  ASSERT_EQ(code, 130) << Err("err");
  std::string err = Err("err");
  EXPECT_NE(err.find("terminated: waiting for the calls in flight"), std::string::npos) << err;
  std::vector<Json> written = Lines(out);
  ASSERT_GE(written.size(), 4u) << err;
  EXPECT_LT(written.size(), 200u);
  for (const Json& rec : written) EXPECT_EQ(rec.find("status")->as_string(), "ok") << ToJson(rec);
  EXPECT_NE(err.find("structure batch: " + std::to_string(written.size()) + " records: ok " +
                     std::to_string(written.size())),
            std::string::npos)
      << err;
}

// A write that fails part way (here a file-size limit, as a full disk) stops the job: the summary
// counts the lines that are in OUT whole, not the records that ended, and the exit code is 2.
TEST_F(BatchEdgesTest, AFullDiskStopsTheJobAndTheSummaryCountsWhatIsInOut) {
  std::string in = WriteInput(60, 0), out = dir_ + "out.jsonl";
  std::string error;
  // ulimit -f counts 512-byte blocks: OUT may grow to 4 KiB, a few dozen result lines.
  auto job = testing::ChildProcess::Spawn(
      {"/bin/sh", "-c", "ulimit -f 8 && exec \"$0\" \"$@\"", STRUCTURE_BINARY, "batch",
       "--base-url", sim_->base_url(), "--schema", kData + "schema.json", in, "-o", out,
       "--concurrency", "4"},
      {"", dir_ + "stdout", dir_ + "err"}, &error);
  ASSERT_TRUE(job) << error;
  int code = job->WaitFor(120);
  if (code < 0) job->Signal(SIGKILL);
  std::string err = Err("err");
  EXPECT_EQ(code, 2) << err;
  EXPECT_NE(err.find("cannot write " + out), std::string::npos) << err;
  std::string text = Slurp(out);
  EXPECT_EQ(text.size(), 4096u);
  size_t complete = static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
  ASSERT_GT(complete, 0u);
  EXPECT_LT(complete, 60u);
  EXPECT_NE(err.find("structure batch: " + std::to_string(complete) + " records: ok " +
                     std::to_string(complete) + ","),
            std::string::npos)
      << err;
  // The torn last line is dropped by the next resume, which runs the rest.
  auto resumed = Batch({in, "-o", out, "--resume"}, "err2");
  EXPECT_EQ(resumed->Wait(), 0) << Err("err2");
  EXPECT_NE(Err("err2").find("dropped a torn last line"), std::string::npos) << Err("err2");
  EXPECT_EQ(Lines(out).size(), 60u);
}

// Every kind of output file the command writes: a symlinked OUT and --stats keep their links, a
// FIFO gets the lines in place, /dev/null stays a device (tests/base/output_file_test.cc has the
// refused kinds).
TEST_F(BatchEdgesTest, OutputsOfEveryKindAreWrittenByTheirRules) {
  std::string in = WriteInput(3, 0);
  std::string real = dir_ + "real.jsonl", link = dir_ + "link.jsonl";
  std::string stats_real = dir_ + "stats.json", stats_link = dir_ + "stats-link.json";
  ASSERT_EQ(symlink(real.c_str(), link.c_str()), 0);
  ASSERT_EQ(symlink(stats_real.c_str(), stats_link.c_str()), 0);
  EXPECT_EQ(Batch({in, "-o", link, "--stats", stats_link}, "err1")->Wait(), 0) << Err("err1");
  struct stat st {};
  ASSERT_EQ(lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  ASSERT_EQ(lstat(stats_link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(Lines(real).size(), 3u);
  EXPECT_NE(Slurp(stats_real).find("\"run\""), std::string::npos);

  std::string fifo = dir_ + "p";
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  std::string got;
  std::thread reader([&] { got = Slurp(fifo); });
  EXPECT_EQ(Batch({in, "-o", fifo, "--stats", "/dev/null"}, "err2")->Wait(), 0) << Err("err2");
  reader.join();
  EXPECT_EQ(std::count(got.begin(), got.end(), '\n'), 3) << got;
  ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  ASSERT_EQ(stat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode));
}

// Input that never ends a line (`yes | tr -d '\n' | structure batch`) used to be read at 100 %
// CPU until SIGKILL: SIGTERM and two Ctrl-C were ignored. The line limit now applies while the
// line is read (its record is refused once it passes 16 MiB), and reading looks at the stop
// flag every 64 KiB, so either stop ends the job promptly.
TEST_F(BatchEdgesTest, InputThatNeverEndsALineStopsOnSigtermAndOnTwoCtrlC) {
  std::signal(SIGPIPE, SIG_IGN);  // the generator ends on EPIPE once the job has gone
  for (bool sigterm : {true, false}) {
    std::string name = sigterm ? "term" : "int";
    std::string fifo = dir_ + name + ".fifo", out = dir_ + name + ".jsonl";
    ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
    std::atomic<bool> done{false};
    std::thread generator([&] {
      int fd = open(fifo.c_str(), O_WRONLY);
      std::string chunk(1 << 16, 'y');
      while (fd >= 0 && !done && write(fd, chunk.data(), chunk.size()) > 0) {
      }
      if (fd >= 0) close(fd);
    });
    auto job = Batch({fifo, "-o", out}, name + ".err");
    auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (!job->Exited() && Slurp(out).find('\n') == std::string::npos &&
           std::chrono::steady_clock::now() < give_up) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    std::string first = Slurp(out);
    EXPECT_NE(first.find("longer than 16777216 bytes"), std::string::npos) << first;
    auto stopped_at = std::chrono::steady_clock::now();
    if (sigterm) {
      job->Signal(SIGTERM);
    } else {
      CtrlCTwice(*job, name + ".err");
    }
    int code = job->WaitFor(20);
    if (code < 0) job->Signal(SIGKILL);
    double took =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - stopped_at).count();
    done = true;
    int unblock = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // a generator still opening it
    generator.join();
    if (unblock >= 0) close(unblock);
    EXPECT_EQ(code, 130) << name << " took " << took << " s: " << Err(name + ".err");
    std::string err = Err(name + ".err");
    EXPECT_NE(err.find(sigterm ? "terminated" : "stopping"), std::string::npos) << err;
    EXPECT_NE(err.find("structure batch: 1 record"), std::string::npos) << err;
  }
}

}  // namespace
}  // namespace structure
