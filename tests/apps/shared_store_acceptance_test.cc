// The shared store's acceptance runs (ctest label "long", about 70 s and 40 s): three `structure
// batch` processes at once on one simulator endpoint that enforces its limit, each told the same
// limit. With the shared store they use the limit without a single 429; without it (a second
// simulator, at the same time) they overrun it. Then the store stopped mid-run and started
// again: every record still ends ok and each process goes back to the shared limits.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <thread>

#include "base/json.h"
#include "base/read_file.h"
#include "tests/server/http_client.h"
#include "tests/support/redis_server.h"
#include "tests/support/sim_process.h"

namespace structure {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

const std::string kSchema = std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/batch/schema.json";

struct SimCounts {
  int64_t ok = 0;
  int64_t rate_limited = 0;  // 429s from the enforced limit
};

SimCounts Counts(const testing::ChildProcess& sim) {
  SimCounts c;
  auto reply = testing::Http("GET", sim.base_url() + "/stats");
  auto j = ParseJson(reply.body);
  EXPECT_TRUE(j.ok()) << reply.body;
  if (!j.ok()) return c;
  if (const Json* r = j->find("responses"); r && r->find("200")) c.ok = r->find("200")->as_int();
  if (const Json* rl = j->find("rate_limited")) c.rate_limited = rl->as_int();
  return c;
}

size_t CountLines(const std::string& path) {
  auto text = ReadFile(path);
  return text.ok() ? static_cast<size_t>(std::count(text->begin(), text->end(), '\n')) : 0;
}

size_t CountOf(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1)) ++n;
  return n;
}

class SharedStoreAcceptanceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "shared_accept_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name() + "/";
    mkdir(dir_.c_str(), 0755);
  }
  void TearDown() override {
    workers_.clear();
    std::string rm = "rm -rf '" + dir_ + "'";
    EXPECT_EQ(std::system(rm.c_str()), 0);
  }

  std::unique_ptr<testing::ChildProcess> Sim(int rpm) {
    std::string err;
    auto sim =
        testing::StartSim(STRUCTURE_BINARY, {"--rpm", std::to_string(rpm), "--seed", "1"}, &err);
    EXPECT_TRUE(sim) << err;
    return sim;
  }

  // A config for one provider on `sim` told `rpm`, with the shared store when `store` is set.
  std::string Config(const std::string& name, const testing::ChildProcess& sim, int rpm,
                     const testing::RedisServer* store) {
    std::string path = dir_ + name + ".toml";
    std::ofstream f(path);
    f << "[providers.sim]\nkind = \"openai\"\nbase_url = \"" << sim.base_url() << "\"\n"
      << "model = \"sim-1\"\n[providers.sim.limits]\nrequests_per_minute = " << rpm << "\n"
      << "[aliases]\n\"default:fast\" = \"sim\"\n";
    if (store != nullptr) {
      f << "[stores]\nshared = \"" << store->url() << "\"\nshared_expected_processes = 3\n";
    }
    return path;
  }

  std::string Input(int lines) {
    std::string path = dir_ + "in.jsonl";
    std::ofstream f(path);
    for (int i = 0; i < lines; ++i)
      f << "{\"id\": \"r" << i << "\", \"prompt\": \"ticket " << i << "\"}\n";
    return path;
  }

  // Worker i of 3 on `input` (its shard), writing <tag>.<i>.jsonl and <tag>.<i>.err.
  void StartWorkers(const std::string& tag, const std::string& config, const std::string& input) {
    for (int i = 1; i <= 3; ++i) {
      std::string base = dir_ + tag + "." + std::to_string(i);
      std::vector<std::string> argv = {STRUCTURE_BINARY,
                                       "batch",
                                       input,
                                       "-o",
                                       base + ".jsonl",
                                       "--shard",
                                       std::to_string(i) + "/3",
                                       "--config",
                                       config,
                                       "--schema",
                                       kSchema,
                                       "--database",
                                       ":memory:",
                                       "--concurrency",
                                       "64"};
      std::string err;
      auto child = testing::ChildProcess::Spawn(
          argv, testing::ChildIo{"", dir_ + "stdout", base + ".err"}, &err);
      ASSERT_TRUE(child) << err;
      workers_.push_back(std::move(child));
    }
  }

  // Every record of every worker's output: id -> status.
  std::map<std::string, std::string> Records(const std::string& tag) {
    std::map<std::string, std::string> out;
    for (int i = 1; i <= 3; ++i) {
      auto text = ReadFile(dir_ + tag + "." + std::to_string(i) + ".jsonl");
      if (!text.ok()) continue;
      size_t pos = 0;
      while (pos < text->size()) {
        size_t nl = text->find('\n', pos);
        auto rec = ParseJson(std::string_view(*text).substr(pos, nl - pos));
        EXPECT_TRUE(rec.ok());
        if (rec.ok()) {
          std::string id = rec->find("id")->as_string();
          EXPECT_EQ(out.count(id), 0u) << id << " written twice";
          out[id] = rec->find("status")->as_string();
        }
        pos = nl + 1;
      }
    }
    return out;
  }

  std::string Stderr(const std::string& tag, int i) {
    auto text = ReadFile(dir_ + tag + "." + std::to_string(i) + ".err");
    return text.ok() ? *text : "";
  }

  std::string dir_;
  std::vector<std::unique_ptr<testing::ChildProcess>> workers_;
};

TEST_F(SharedStoreAcceptanceTest, ThreeProcessesOnOneKeyUseTheLimitWithoutA429) {
  const int kRpm = 600;
  std::string err;
  auto redis = testing::RedisServer::Start(&err);
  ASSERT_TRUE(redis) << err;
  auto shared_sim = Sim(kRpm), alone_sim = Sim(kRpm);
  ASSERT_TRUE(shared_sim && alone_sim);
  std::string input = Input(6000);  // more than either run can finish in the window, however slow
  StartWorkers("shared", Config("shared", *shared_sim, kRpm, redis.get()), input);
  StartWorkers("alone", Config("alone", *alone_sim, kRpm, nullptr), input);

  // The window opens once every shared worker has written a result (all are running).
  auto started = Clock::now();
  for (int i = 1; i <= 3; ++i) {
    while (CountLines(dir_ + "shared." + std::to_string(i) + ".jsonl") == 0 &&
           Clock::now() - started < 120s) {
      std::this_thread::sleep_for(20ms);
    }
  }
  SimCounts shared0 = Counts(*shared_sim);
  auto t0 = Clock::now();
  std::this_thread::sleep_until(t0 + 60s);  // the measured window
  SimCounts shared1 = Counts(*shared_sim);
  auto t1 = Clock::now();
  SimCounts alone = Counts(*alone_sim);
  for (auto& w : workers_) w->Signal(SIGINT);  // stop reading; the calls in flight finish
  for (auto& w : workers_) EXPECT_EQ(w->Wait(), 130);

  double seconds = std::chrono::duration<double>(t1 - t0).count();
  int64_t calls = shared1.ok - shared0.ok;
  double used = static_cast<double>(calls) / (kRpm * seconds / 60.0);
  std::printf(
      "with the shared store: 3 processes, %lld calls ok in %.1f s = %.1f %% of %d/min, %lld x "
      "429\n"
      "without it:            3 processes, %lld calls ok from the start to the window's end, %lld "
      "x 429\n",
      static_cast<long long>(calls), seconds, 100 * used, kRpm,
      static_cast<long long>(shared1.rate_limited), static_cast<long long>(alone.ok),
      static_cast<long long>(alone.rate_limited));
  EXPECT_GE(used, 0.98);
  EXPECT_EQ(shared1.rate_limited, 0);
  EXPECT_GT(alone.rate_limited, 0);
  for (const auto& [id, status] : Records("shared")) EXPECT_EQ(status, "ok") << id;
  for (int i = 1; i <= 3; ++i)
    EXPECT_EQ(Stderr("shared", i).find("unreachable"), std::string::npos);
}

TEST_F(SharedStoreAcceptanceTest, StoreStoppedMidRunEveryRecordEndsOkAndTheStoreRulesAgain) {
  const int kRpm = 1200;  // 20 a second: 480 records take about 25 s
  const int kLines = 480;
  std::string err;
  auto redis = testing::RedisServer::Start(&err);
  ASSERT_TRUE(redis) << err;
  auto sim = Sim(kRpm);
  ASSERT_TRUE(sim);
  StartWorkers("run", Config("run", *sim, kRpm, redis.get()), Input(kLines));
  auto written = [&] {
    size_t n = 0;
    for (int i = 1; i <= 3; ++i) n += CountLines(dir_ + "run." + std::to_string(i) + ".jsonl");
    return n;
  };
  auto wait_for = [&](auto pred, const char* what) {
    auto deadline = Clock::now() + 180s;
    while (!pred() && Clock::now() < deadline) std::this_thread::sleep_for(20ms);
    EXPECT_TRUE(pred()) << what;
  };
  wait_for([&] { return written() >= 100; }, "100 records before the outage");
  redis->Stop();
  size_t at_stop = written();
  wait_for([&] { return written() >= at_stop + 100; }, "100 records during the outage");
  ASSERT_TRUE(redis->Restart(&err)) << err;
  wait_for(
      [&] {
        for (int i = 1; i <= 3; ++i) {
          if (Stderr("run", i).find("answers again") == std::string::npos) return false;
        }
        return true;
      },
      "every worker back on the shared store");
  // The restarted server started empty: cells in it again mean the workers use it again.
  wait_for(
      [&] {
        return redis->Query("KEYS structure:limit:*").find("structure:limit:{") !=
               std::string::npos;
      },
      "the shared limits back in the store");
  for (auto& w : workers_) EXPECT_EQ(w->Wait(), 0);  // every record ok

  auto records = Records("run");
  EXPECT_EQ(records.size(), static_cast<size_t>(kLines));
  for (const auto& [id, status] : records) EXPECT_EQ(status, "ok") << id;
  SimCounts counts = Counts(*sim);
  std::string log = Stderr("run", 1);
  std::printf("worker 1's log:\n%s(the simulator counted %lld calls ok, %lld x 429)\n", log.c_str(),
              static_cast<long long>(counts.ok), static_cast<long long>(counts.rate_limited));
  for (int i = 1; i <= 3; ++i) {
    std::string e = Stderr("run", i);
    EXPECT_EQ(CountOf(e, "structure: shared store " + redis->url() + " unreachable"), 1u) << e;
    EXPECT_EQ(CountOf(e, "structure: shared store " + redis->url() + " answers again"), 1u) << e;
    EXPECT_NE(e.find("a local share of 33.3 %"), std::string::npos) << e;
  }
  EXPECT_EQ(counts.rate_limited, 0);
}

}  // namespace
}  // namespace structure
