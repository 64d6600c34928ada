// `structure batch` end to end against `structure sim` on loopback
// (tests/data/batch/scenario.json): the kill/resume acceptance, SIGINT, stdin/stdout, --ordered.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <map>
#include <random>
#include <thread>

#include "base/json.h"
#include "base/read_file.h"
#include "batch/shard.h"
#include "tests/support/sim_process.h"

namespace structure {
namespace {

const std::string kData = std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/batch/";

// Counts the lines of a growing file without rereading it; starts over if it shrinks (a
// resume truncating a torn tail).
class LineCounter {
 public:
  explicit LineCounter(std::string path) : path_(std::move(path)) {}
  ~LineCounter() {
    if (fd_ >= 0) close(fd_);
  }
  size_t Count() {
    struct stat st {};
    if (stat(path_.c_str(), &st) != 0) return 0;
    if (fd_ < 0 || static_cast<size_t>(st.st_size) < offset_) {
      if (fd_ >= 0) close(fd_);
      fd_ = open(path_.c_str(), O_RDONLY);
      offset_ = 0;
      lines_ = 0;
    }
    char buf[1 << 16];
    ssize_t n;
    while (fd_ >= 0 && (n = read(fd_, buf, sizeof(buf))) > 0) {
      offset_ += static_cast<size_t>(n);
      lines_ += static_cast<size_t>(std::count(buf, buf + n, '\n'));
    }
    return lines_;
  }

 private:
  std::string path_;
  int fd_ = -1;
  size_t offset_ = 0;
  size_t lines_ = 0;
};

struct Expected {
  std::string status;
  int iterations = 0;  // 0 = not checked
};

class BatchCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    sim_ = testing::StartSim(STRUCTURE_BINARY, {"--scenario", kData + "scenario.json"}, &err);
    ASSERT_NE(sim_, nullptr) << err;
    dir_ = ::testing::TempDir() + "batch_cli_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
    mkdir(dir_.c_str(), 0755);
    ::unlink((dir_ + "out.jsonl").c_str());
  }

  void TearDown() override {
    sim_.reset();
    std::string rm = "rm -rf '" + dir_ + "'";
    EXPECT_EQ(std::system(rm.c_str()), 0);
  }

  // `structure batch` with stdout, stderr (and stdin) redirected to files.
  std::unique_ptr<testing::ChildProcess> Batch(const std::vector<std::string>& args,
                                               const std::string& out, const std::string& err,
                                               const std::string& in = "") {
    std::vector<std::string> argv = {STRUCTURE_BINARY};
    argv.insert(argv.end(), args.begin(), args.end());
    std::string error;
    auto child = testing::ChildProcess::Spawn(argv, testing::ChildIo{in, out, err}, &error);
    EXPECT_TRUE(child) << error;
    return child;
  }

  std::vector<std::string> Args(std::vector<std::string> extra) {
    std::vector<std::string> a = {"batch",    "--base-url",          sim_->base_url(),
                                  "--schema", kData + "schema.json", "--database",
                                  ":memory:"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  }

  // Writes n input lines; returns what each record key must end as.
  std::map<std::string, Expected> WriteInput(const std::string& path, int n) {
    std::map<std::string, Expected> want;
    std::ofstream in(path);
    for (int i = 0; i < n; ++i) {
      std::string id = "r" + std::to_string(i);
      if (i % 97 == 13) {
        in << "{\"id\": \"" << id << "\", \"prompt\": \n";  // malformed: keyed by line number
        want["line:" + std::to_string(i + 1)] = {"error"};
        continue;
      }
      switch (i % 5) {
        case 0:
        case 1:
          in << "{\"id\": \"" << id << "\", \"prompt\": \"CASE-OK record " << i << "\"}\n";
          want[id] = {"ok", 1};
          break;
        case 2:
          in << "{\"id\": \"" << id << "\", \"prompt\": \"CASE-REASK record " << i << "\"}\n";
          want[id] = {"ok", 2};
          break;
        case 3:
          in << "{\"id\": \"" << id << "\", \"prompt\": \"CASE-STALE record " << i
             << "\", \"maxLoops\": 2}\n";
          want[id] = {"stale", 2};
          break;
        case 4:
          in << "{\"id\": \"" << id << "\", \"prompt\": \"CASE-NEED record " << i << "\"}\n";
          want[id] = {"need-more-input", 1};
          break;
      }
    }
    return want;
  }

  // Every line complete and parseable, every record exactly once, each as the scenario says.
  void CheckOutput(const std::string& path, const std::map<std::string, Expected>& want) {
    auto text = ReadFile(path);
    ASSERT_TRUE(text.ok());
    ASSERT_TRUE(text->empty() || text->back() == '\n') << "torn last line";
    std::map<std::string, int> seen;
    size_t pos = 0;
    while (pos < text->size()) {
      size_t nl = text->find('\n', pos);
      auto rec = ParseJson(std::string_view(*text).substr(pos, nl - pos));
      ASSERT_TRUE(rec.ok()) << rec.status().message();
      pos = nl + 1;
      std::string key = rec->contains("id") ? rec->find("id")->as_string()
                                            : "line:" + std::to_string(rec->find("line")->as_int());
      ++seen[key];
      auto it = want.find(key);
      ASSERT_NE(it, want.end()) << key;
      EXPECT_EQ(rec->find("status")->as_string(), it->second.status) << ToJson(*rec);
      if (it->second.iterations > 0) {
        EXPECT_EQ(rec->find("iterations")->as_int(), it->second.iterations) << ToJson(*rec);
      }
    }
    EXPECT_EQ(seen.size(), want.size());
    for (auto& [key, n] : seen) EXPECT_EQ(n, 1) << key << " written " << n << " times";
  }

  static size_t CountLines(const std::string& path) {
    auto text = ReadFile(path);
    return text.ok() ? static_cast<size_t>(std::count(text->begin(), text->end(), '\n')) : 0;
  }

  std::unique_ptr<testing::ChildProcess> sim_;
  std::string dir_;
};

TEST_F(BatchCliTest, SigkillAtRandomMomentsThenResumeWritesEveryRecordExactlyOnce) {
  const int kLines = 5000;
  std::string in = dir_ + "in.jsonl", out = dir_ + "out.jsonl";
  auto want = WriteInput(in, kLines);
  std::mt19937 rng(std::random_device{}());
  int kills = 0;
  for (int round = 0; round < 3; ++round) {
    size_t before = CountLines(out);
    size_t left = kLines > static_cast<int>(before) ? kLines - before : 0;
    size_t target = before + 1 + (left > 2 ? rng() % (left - 1) : 0);
    auto batch = Batch(Args({in, "-o", out, "--resume", "--concurrency", "64"}), dir_ + "stdout",
                       dir_ + "stderr." + std::to_string(round));
    LineCounter counter(out);
    while (!batch->Exited() && counter.Count() < target) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    std::this_thread::sleep_for(std::chrono::microseconds(rng() % 3000));
    if (!batch->Exited()) {
      batch->Signal(SIGKILL);
      ++kills;
    }
    int code = batch->Wait();
    EXPECT_TRUE(code == 128 + SIGKILL || code == 1) << "round " << round << " exit " << code;
  }
  EXPECT_GE(kills, 1);
  auto last = Batch(Args({in, "-o", out, "--resume", "--concurrency", "64"}), dir_ + "stdout",
                    dir_ + "stderr.last");
  EXPECT_EQ(last->Wait(), 1);  // stale, need-more-input and malformed lines are not ok
  CheckOutput(out, want);
  auto summary = ReadFile(dir_ + "stderr.last");
  ASSERT_TRUE(summary.ok());
  EXPECT_NE(summary->find("structure batch: 5000 records:"), std::string::npos) << *summary;
}

TEST_F(BatchCliTest, StdinToStdoutAndOrdered) {
  std::string in = dir_ + "in.jsonl";
  auto want = WriteInput(in, 60);
  auto batch =
      Batch(Args({"--ordered", "--concurrency", "8"}), dir_ + "out.jsonl", dir_ + "stderr", in);
  EXPECT_EQ(batch->Wait(), 1);
  CheckOutput(dir_ + "out.jsonl", want);
  auto text = ReadFile(dir_ + "out.jsonl");
  ASSERT_TRUE(text.ok());
  // Input order: r0 first, r59 last, line 14 (malformed) in its place.
  EXPECT_EQ(text->rfind("{\"id\":\"r0\",", 0), 0u);
  EXPECT_LT(text->find("\"id\":\"r12\""), text->find("\"line\":14"));
  EXPECT_LT(text->find("\"line\":14"), text->find("\"id\":\"r14\""));
  EXPECT_NE(text->find("{\"id\":\"r59\","), std::string::npos);
  EXPECT_EQ(text->find("{\"id\":\"r59\","), text->rfind('\n', text->size() - 2) + 1);
}

TEST_F(BatchCliTest, CheckCommandRunsForEveryRecordAtConcurrency) {
  std::string in = dir_ + "in.jsonl", out = dir_ + "out.jsonl";
  std::map<std::string, Expected> want;
  {
    std::ofstream f(in);
    for (int i = 0; i < 40; ++i) {
      f << "{\"id\": \"c" << i << "\", \"prompt\": \"CASE-CHECK record " << i << "\"}\n";
      want["c" + std::to_string(i)] = {"ok", 2};  // Bob is rejected by the check, then Mike
    }
  }
  std::string check =
      "sh " + std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/engine/check_mike.sh";
  auto batch = Batch(Args({in, "-o", out, "--concurrency", "16", "--check", check}),
                     dir_ + "stdout", dir_ + "stderr");
  EXPECT_EQ(batch->Wait(), 0) << *ReadFile(dir_ + "stderr");
  CheckOutput(out, want);

  // A check that fails ends each call check_failed; bad check flags are usage errors.
  std::ofstream(in) << "{\"id\": \"f\", \"prompt\": \"CASE-OK a\"}\n";
  auto failing = Batch(Args({in, "-o", out, "--overwrite", "--check", "exit 9"}), dir_ + "stdout",
                       dir_ + "stderr");
  EXPECT_EQ(failing->Wait(), 1);
  EXPECT_NE(ReadFile(out)->find(R"("code":"check_failed")"), std::string::npos) << *ReadFile(out);
  EXPECT_NE(ReadFile(out)->find("check command exited with status 9"), std::string::npos);
  for (std::vector<std::string> bad :
       {std::vector<std::string>{"--check", " "},
        std::vector<std::string>{"--check", "true", "--check-timeout-ms", "0"},
        std::vector<std::string>{"--check-timeout-ms", "5"}}) {
    std::vector<std::string> a = {in, "-o", dir_ + "never.jsonl"};
    a.insert(a.end(), bad.begin(), bad.end());
    auto usage = Batch(Args(a), dir_ + "stdout", dir_ + "stderr");
    EXPECT_EQ(usage->Wait(), 2) << bad[0];
    EXPECT_NE(ReadFile(dir_ + "stderr")->find("--check"), std::string::npos)
        << *ReadFile(dir_ + "stderr");
    EXPECT_NE(access((dir_ + "never.jsonl").c_str(), F_OK), 0)
        << "nothing written for a usage error";
  }
}

TEST_F(BatchCliTest, AllOkExitsZeroAndRefusesToClobberOutput) {
  std::string in = dir_ + "in.jsonl", out = dir_ + "out.jsonl";
  std::ofstream(in)
      << "{\"id\": 1, \"prompt\": \"CASE-OK a\"}\n{\"id\": 2, \"prompt\": \"CASE-REASK b\"}\n";
  auto first = Batch(Args({in, "-o", out}), dir_ + "stdout", dir_ + "stderr");
  EXPECT_EQ(first->Wait(), 0);
  EXPECT_EQ(CountLines(out), 2u);
  auto again = Batch(Args({in, "--output", out}), dir_ + "stdout", dir_ + "stderr");
  EXPECT_EQ(again->Wait(), 2);
  EXPECT_NE(ReadFile(dir_ + "stderr")->find("--resume"), std::string::npos);
  auto resumed = Batch(Args({in, "-o", out, "--resume"}), dir_ + "stdout", dir_ + "stderr");
  EXPECT_EQ(resumed->Wait(), 0);
  EXPECT_EQ(CountLines(out), 2u);
  EXPECT_NE(ReadFile(dir_ + "stderr")->find("(2 resumed)"), std::string::npos)
      << *ReadFile(dir_ + "stderr");
}

TEST_F(BatchCliTest, SigintStopsCleanlyAndResumeFinishes) {
  std::string in = dir_ + "in.jsonl", out = dir_ + "out.jsonl";
  {
    std::ofstream f(in);
    for (int i = 0; i < 200; ++i)
      f << "{\"id\": " << i << ", \"prompt\": \"CASE-SLOW " << i << "\"}\n";
  }
  auto batch =
      Batch(Args({in, "-o", out, "--concurrency", "16"}), dir_ + "stdout", dir_ + "stderr");
  while (!batch->Exited() && CountLines(out) < 1)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  batch->Signal(SIGINT);
  EXPECT_EQ(batch->Wait(), 130);
  size_t written = CountLines(out);
  EXPECT_GE(written, 1u);
  EXPECT_LT(written, 200u);
  auto err = ReadFile(dir_ + "stderr");
  EXPECT_NE(err->find("interrupted"), std::string::npos) << *err;
  EXPECT_EQ(ReadFile(out)->find("cancelled"), std::string::npos);  // in-flight calls finished
  auto resumed = Batch(Args({in, "-o", out, "--resume", "--concurrency", "64"}), dir_ + "stdout",
                       dir_ + "stderr");
  EXPECT_EQ(resumed->Wait(), 0);
  std::map<std::string, Expected> want;
  for (int i = 0; i < 200; ++i) want[std::to_string(i)] = {"ok", 1};
  // ids are integers here: key them as their decimal text
  auto text = ReadFile(out);
  std::map<int64_t, int> seen;
  size_t pos = 0;
  while (pos < text->size()) {
    size_t nl = text->find('\n', pos);
    auto rec = ParseJson(std::string_view(*text).substr(pos, nl - pos));
    ASSERT_TRUE(rec.ok());
    EXPECT_EQ(rec->find("status")->as_string(), "ok");
    ++seen[rec->find("id")->as_int()];
    pos = nl + 1;
  }
  EXPECT_EQ(seen.size(), 200u);
  for (auto& [id, n] : seen) EXPECT_EQ(n, 1) << id;
}

// Three workers split one 3 000-line input with --shard; each is killed once (SIGKILL
// at a random point) and resumed on its own OUT. Together they hold every record exactly once,
// each in the shard its id hashes to.
TEST_F(BatchCliTest, ThreeShardsKilledAndResumedCoverTheInputExactlyOnce) {
  const int kLines = 3000;
  std::string in = dir_ + "in.jsonl";
  auto want = WriteInput(in, kLines);
  std::mt19937 rng(std::random_device{}());
  std::vector<std::unique_ptr<testing::ChildProcess>> workers;
  std::vector<std::string> outs;
  for (int i = 1; i <= 3; ++i) {
    outs.push_back(dir_ + "out" + std::to_string(i) + ".jsonl");
    std::string shard = std::to_string(i) + "/3";
    workers.push_back(Batch(Args({in, "-o", outs.back(), "--shard", shard, "--concurrency", "32"}),
                            dir_ + "stdout", dir_ + "stderr.kill" + std::to_string(i)));
  }
  int kills = 0;
  for (int i = 0; i < 3; ++i) {
    size_t target = 1 + rng() % 600;  // each shard holds about 1 000 records
    LineCounter counter(outs[i]);
    while (!workers[i]->Exited() && counter.Count() < target) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    if (!workers[i]->Exited()) {
      workers[i]->Signal(SIGKILL);
      ++kills;
    }
    int code = workers[i]->Wait();
    EXPECT_TRUE(code == 128 + SIGKILL || code == 1) << "shard " << i + 1 << " exit " << code;
  }
  EXPECT_EQ(kills, 3);
  for (int i = 0; i < 3; ++i) {
    std::string shard = std::to_string(i + 1) + "/3";
    workers[i] =
        Batch(Args({in, "-o", outs[i], "--resume", "--shard", shard, "--concurrency", "32"}),
              dir_ + "stdout", dir_ + "stderr.resume" + std::to_string(i + 1));
  }
  std::string all;
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(workers[i]->Wait(), 1) << "shard " << i + 1;  // stale, need and bad lines are not ok
    auto text = ReadFile(outs[i]);
    ASSERT_TRUE(text.ok());
    size_t pos = 0;
    while (pos < text->size()) {
      size_t nl = text->find('\n', pos);
      auto rec = ParseJson(std::string_view(*text).substr(pos, nl - pos));
      ASSERT_TRUE(rec.ok()) << rec.status().message();
      const Json* id = rec->find("id");
      uint64_t line =
          rec->contains("line") ? static_cast<uint64_t>(rec->find("line")->as_int()) : 0;
      std::string key = batch::ShardKey(id ? *id : Json(), line);
      EXPECT_EQ(batch::ShardOf(key, 3), static_cast<uint64_t>(i + 1)) << key;
      pos = nl + 1;
    }
    all += *text;
  }
  std::ofstream(dir_ + "union.jsonl") << all;
  CheckOutput(dir_ + "union.jsonl", want);
}

}  // namespace
}  // namespace structure
