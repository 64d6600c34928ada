// The driver against a fake asynchronous engine: completion order is shuffled, some calls are
// held until released, and the fake records how many calls were in flight at once.
#include "batch/batch_runner.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "base/read_file.h"

namespace structure::batch {
namespace {

using pipeline::Outcome;
using pipeline::StructureResult;

class FakeEngine {
 public:
  FakeEngine() : worker_([this] { Loop(); }) {}
  ~FakeEngine() {
    {
      std::lock_guard<std::mutex> l(mu_);
      quit_ = true;
      release_ = true;
    }
    cv_.notify_all();
    worker_.join();
  }

  SubmitFn Submitter() {
    return [this](pipeline::StructureRequest r, std::function<void(StructureResult)> done) {
      std::lock_guard<std::mutex> l(mu_);
      ++submitted_;
      ++in_flight_;
      max_in_flight_ = std::max(max_in_flight_, in_flight_);
      bool hold = r.prompt.find("hold") != std::string::npos;
      // Later submissions finish first within a wave, so completion order differs from input.
      auto delay =
          std::chrono::microseconds(hold ? 0 : 3000 - static_cast<int>(submitted_ % 30) * 100);
      calls_.push_back(
          {std::chrono::steady_clock::now() + delay, hold, std::move(r), std::move(done)});
      cv_.notify_all();
    };
  }

  void Release() {
    {
      std::lock_guard<std::mutex> l(mu_);
      release_ = true;
    }
    cv_.notify_all();
  }
  // Answers every held call "cancelled" at once, like destroying the Engine.
  void CancelAll() {
    {
      std::lock_guard<std::mutex> l(mu_);
      cancel_ = true;
      release_ = true;
    }
    cv_.notify_all();
    std::unique_lock<std::mutex> l(mu_);
    idle_cv_.wait(l, [&] { return in_flight_ == 0 && answering_ == 0; });
  }
  int submitted() {
    std::lock_guard<std::mutex> l(mu_);
    return submitted_;
  }
  int max_in_flight() {
    std::lock_guard<std::mutex> l(mu_);
    return max_in_flight_;
  }

 private:
  struct Call {
    std::chrono::steady_clock::time_point due;
    bool hold;
    pipeline::StructureRequest request;
    std::function<void(StructureResult)> done;
  };

  static StructureResult Answer(const pipeline::StructureRequest& r, bool cancelled) {
    if (cancelled) return pipeline::ErrorResult(ErrorCode::kCancelled, "cancelled");
    StructureResult res;
    if (r.prompt.find("need") != std::string::npos) {
      res.status = Outcome::kNeedMoreInput;
      res.need = "more";
    } else {
      res.status = Outcome::kOk;
      res.data = Json::MakeObject();
      res.data.set("prompt", r.prompt);
    }
    res.usage.input_tokens = 10;
    res.usage.output_tokens = 2;
    return res;
  }

  void Loop() {
    std::unique_lock<std::mutex> l(mu_);
    while (true) {
      auto now = std::chrono::steady_clock::now();
      auto it = calls_.end();
      for (auto c = calls_.begin(); c != calls_.end(); ++c) {
        if ((c->hold && release_) || (!c->hold && c->due <= now)) {
          if (it == calls_.end() || c->due < it->due) it = c;
        }
      }
      if (it != calls_.end()) {
        Call call = std::move(*it);
        calls_.erase(it);
        bool cancelled = call.hold && cancel_;
        --in_flight_;  // before answering: the answer may free a slot for the next call at once
        ++answering_;
        l.unlock();
        call.done(Answer(call.request, cancelled));
        l.lock();
        --answering_;
        idle_cv_.notify_all();
        continue;
      }
      if (quit_ && calls_.empty()) return;
      cv_.wait_for(l, std::chrono::microseconds(200));
    }
  }

  std::mutex mu_;
  std::condition_variable cv_, idle_cv_;
  std::vector<Call> calls_;
  int submitted_ = 0, in_flight_ = 0, max_in_flight_ = 0, answering_ = 0;
  bool release_ = false, cancel_ = false, quit_ = false;
  std::thread worker_;
};

class BatchRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    out_path_ = ::testing::TempDir() + "runner_" + std::to_string(getpid()) + "_" +
                ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".jsonl";
    ::unlink(out_path_.c_str());
    options_.defaults.schema_name = "contact";
  }
  void TearDown() override { ::unlink(out_path_.c_str()); }

  BatchReport RunOn(const std::string& input, FakeEngine& fake, const JournalScan* resume = nullptr,
                    bool sync = false) {
    auto journal = JournalWriter::Open(out_path_, false, sync);
    EXPECT_TRUE(journal.ok());
    input_ = input;
    std::FILE* in = fmemopen(input_.data(), input_.size(), "r");
    BatchRunner runner(options_, fake.Submitter(), &*journal, resume);
    BatchReport report = runner.Run(in);
    std::fclose(in);
    return report;
  }

  std::vector<Json> Output() {
    std::vector<Json> lines;
    auto text = ReadFile(out_path_);
    if (!text.ok()) return lines;
    size_t pos = 0;
    while (pos < text->size()) {
      size_t nl = text->find('\n', pos);
      EXPECT_NE(nl, std::string::npos) << "torn line";
      if (nl == std::string::npos) break;
      auto j = ParseJson(std::string_view(*text).substr(pos, nl - pos));
      EXPECT_TRUE(j.ok());
      if (j.ok()) lines.push_back(std::move(*j));
      pos = nl + 1;
    }
    return lines;
  }

  static std::string Lines(int n, const std::string& prompt = "ok") {
    std::string s;
    for (int i = 0; i < n; ++i) {
      s += "{\"id\": \"r" + std::to_string(i) + "\", \"prompt\": \"" + prompt + " " +
           std::to_string(i) + "\"}\n";
    }
    return s;
  }

  BatchOptions options_;
  std::string out_path_;
  std::string input_;
};

TEST_F(BatchRunnerTest, WritesEveryRecordOnceAndKeepsAtMostKInFlight) {
  FakeEngine fake;
  options_.concurrency = 8;
  BatchReport report = RunOn(Lines(400), fake);
  EXPECT_FALSE(report.interrupted);
  EXPECT_EQ(report.run.ok, 400u);
  EXPECT_LE(fake.max_in_flight(), 8);
  EXPECT_GE(fake.max_in_flight(), 2);
  std::map<std::string, int> seen;
  for (const Json& j : Output()) ++seen[j.find("id")->as_string()];
  EXPECT_EQ(seen.size(), 400u);
  for (auto& [id, n] : seen) EXPECT_EQ(n, 1) << id;
}

// With --fsync the writer thread journals (a synced write must not stall an engine thread);
// every record is still written once and K still holds.
TEST_F(BatchRunnerTest, WithFsyncEveryRecordIsWrittenOnceAndKHolds) {
  FakeEngine fake;
  options_.concurrency = 8;
  BatchReport report = RunOn(Lines(200), fake, nullptr, /*sync=*/true);
  EXPECT_FALSE(report.interrupted);
  EXPECT_EQ(report.run.ok, 200u);
  EXPECT_LE(fake.max_in_flight(), 8);
  std::map<std::string, int> seen;
  for (const Json& j : Output()) ++seen[j.find("id")->as_string()];
  EXPECT_EQ(seen.size(), 200u);
  for (auto& [id, n] : seen) EXPECT_EQ(n, 1) << id;
}

TEST_F(BatchRunnerTest, OrderedOutputFollowsTheInput) {
  FakeEngine fake;
  options_.concurrency = 16;
  options_.ordered = true;
  std::string input = Lines(200);
  input.insert(input.find("{\"id\": \"r50\""), "not json\n");
  RunOn(input, fake);
  std::vector<Json> out = Output();
  ASSERT_EQ(out.size(), 201u);
  for (size_t i = 0; i < 50; ++i) EXPECT_EQ(*out[i].find("id"), Json("r" + std::to_string(i)));
  EXPECT_EQ(*out[50].find("line"), Json(51));
  EXPECT_EQ(*out[50].find("code"), Json("bad_request"));
  for (size_t i = 51; i < 201; ++i)
    EXPECT_EQ(*out[i].find("id"), Json("r" + std::to_string(i - 1)));
}

TEST_F(BatchRunnerTest, OrderedWindowStopsStartingPastASlowHead) {
  FakeEngine fake;
  options_.concurrency = 4;
  options_.ordered = true;
  options_.reorder_window = 6;
  std::string input = "{\"id\": \"head\", \"prompt\": \"hold\"}\n" + Lines(30);
  BatchReport report;
  std::thread run([&] { report = RunOn(input, fake); });
  while (fake.submitted() < 6) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(fake.submitted(), 6);  // indexes 0..5: the window, though 5 calls finished
  EXPECT_TRUE(Output().empty());   // nothing may be written before the head
  fake.Release();
  run.join();
  std::vector<Json> out = Output();
  ASSERT_EQ(out.size(), 31u);
  EXPECT_EQ(*out[0].find("id"), Json("head"));
  EXPECT_EQ(*out[30].find("id"), Json("r29"));
}

TEST_F(BatchRunnerTest, BadLinesAndDuplicateIdsBecomeErrorRecordsAndTheJobGoesOn) {
  FakeEngine fake;
  std::string input =
      "{\"id\": \"a\", \"prompt\": \"ok\"}\n"
      "\n"
      "{\"id\": \"b\", \"prompt\": \"ok\", \"bogus\": 1}\n"
      "{\"id\": \"a\", \"prompt\": \"again\"}\n"
      "{oops\n"
      "{\"id\": \"c\", \"prompt\": \"need it\"}\n";
  BatchReport report = RunOn(input, fake);
  EXPECT_EQ(report.run.ok, 1u);
  EXPECT_EQ(report.run.need_more_input, 1u);
  EXPECT_EQ(report.run.error, 3u);
  EXPECT_FALSE(report.all().all_ok());
  std::map<std::string, Json> by_key;
  for (const Json& j : Output()) {
    std::string key =
        j.contains("id") ? j.find("id")->as_string() : "line" + ToJson(*j.find("line"));
    EXPECT_TRUE(by_key.emplace(key, j).second) << key;
  }
  ASSERT_EQ(by_key.size(), 5u);
  EXPECT_EQ(*by_key["b"].find("code"), Json("bad_request"));
  EXPECT_NE(ToJson(*by_key["b"].find("errors")).find("bogus"), std::string::npos);
  EXPECT_NE(ToJson(*by_key["line4"].find("errors")).find("already used on line 1"),
            std::string::npos);
  EXPECT_EQ(*by_key["line5"].find("status"), Json("error"));
  EXPECT_EQ(*by_key["c"].find("status"), Json("need-more-input"));
}

TEST_F(BatchRunnerTest, ResumeSkipsRecordsAlreadyJournaled) {
  FakeEngine fake;
  JournalScan scan;
  scan.done = {"\"r0\"", "\"r2\"", "line:9"};
  scan.counts.ok = 3;
  BatchReport report = RunOn(Lines(5), fake, &scan);
  EXPECT_EQ(fake.submitted(), 3);
  EXPECT_EQ(report.resumed.ok, 3u);
  EXPECT_EQ(report.all().ok, 6u);
  std::vector<Json> out = Output();
  ASSERT_EQ(out.size(), 3u);
  for (const Json& j : out) {
    EXPECT_NE(*j.find("id"), Json("r0"));
    EXPECT_NE(*j.find("id"), Json("r2"));
  }
}

TEST_F(BatchRunnerTest, FirstInterruptStopsReadingAndFinishesTheCallsInFlight) {
  FakeEngine fake;
  std::atomic<int> interrupts{0};
  options_.concurrency = 3;
  options_.interrupts = &interrupts;
  BatchReport report;
  std::thread run([&] { report = RunOn(Lines(50, "hold"), fake); });
  while (fake.submitted() < 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  interrupts = 1;
  fake.Release();
  run.join();
  EXPECT_TRUE(report.interrupted);
  EXPECT_EQ(fake.submitted(), 3);
  std::vector<Json> out = Output();
  ASSERT_EQ(out.size(), 3u);
  for (const Json& j : out) EXPECT_EQ(*j.find("status"), Json("ok"));
}

TEST_F(BatchRunnerTest, SecondInterruptCancelsAndRecordsTheCancelledCalls) {
  FakeEngine fake;
  std::atomic<int> interrupts{0};
  options_.concurrency = 4;
  options_.interrupts = &interrupts;
  options_.cancel = [&fake] { fake.CancelAll(); };
  BatchReport report;
  std::thread run([&] { report = RunOn(Lines(50, "hold"), fake); });
  while (fake.submitted() < 4) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  interrupts = 2;
  run.join();
  EXPECT_TRUE(report.interrupted);
  EXPECT_EQ(report.run.error, 4u);
  std::vector<Json> out = Output();
  ASSERT_EQ(out.size(), 4u);
  for (const Json& j : out) EXPECT_EQ(*j.find("code"), Json("cancelled"));
  // A resume drops them and runs them again.
  auto scan = RecoverJournal(out_path_);
  ASSERT_TRUE(scan.ok());
  EXPECT_EQ(scan->dropped_cancelled, 4u);
  EXPECT_TRUE(scan->done.empty());
}

// All input read, then the second Ctrl-C cancels the calls left: those records did not run, so
// the job is interrupted (exit 130), not merely "some record not ok".
TEST_F(BatchRunnerTest, CancellingAfterTheLastLineWasReadStillCountsAsInterrupted) {
  FakeEngine fake;
  std::atomic<int> interrupts{0};
  options_.concurrency = 4;
  options_.interrupts = &interrupts;
  options_.cancel = [&fake] { fake.CancelAll(); };
  BatchReport report;
  std::thread run([&] { report = RunOn(Lines(4, "hold"), fake); });
  while (fake.submitted() < 4) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  interrupts = 2;
  run.join();
  EXPECT_TRUE(report.interrupted);
  EXPECT_EQ(report.run.error, 4u);
  EXPECT_EQ(Output().size(), 4u);
}

TEST_F(BatchRunnerTest, ShardTakesOnlyItsRecordsAndTheShardsCoverTheInputOnce) {
  // Ids, an integer id, a line without an id and a repeated id (reported in the shard of its id).
  std::string input = Lines(300) + "{\"id\": 7, \"prompt\": \"ok int\"}\n" +
                      "{\"prompt\": \"ok no id\"}\n" + "{\"id\": \"r5\", \"prompt\": \"again\"}\n";
  std::map<std::string, int> seen;
  uint64_t total = 0;
  for (uint64_t i = 1; i <= 3; ++i) {
    FakeEngine fake;
    options_.shard = Shard{i, 3};
    BatchReport report = RunOn(input, fake);
    total += report.run.total();
    for (const Json& j : Output()) {
      std::string key = j.contains("id")
                            ? ShardKey(*j.find("id"), 0)
                            : KeyForLine(static_cast<uint64_t>(j.find("line")->as_int()));
      // The repeated id's error is keyed by its line but belongs to the shard of "r5".
      std::string shard_key = key == "line:303" ? "r5" : key;
      EXPECT_EQ(ShardOf(shard_key, 3), i) << key;
      ++seen[key];
    }
    ::unlink(out_path_.c_str());
  }
  EXPECT_EQ(total, 303u);
  EXPECT_EQ(seen.size(), 303u);
  for (auto& [key, n] : seen) EXPECT_EQ(n, 1) << key;
  EXPECT_EQ(seen.count("line:302"), 1u);  // the line without an id
  EXPECT_EQ(seen.count("line:303"), 1u);  // the repeated id
}

}  // namespace
}  // namespace structure::batch
