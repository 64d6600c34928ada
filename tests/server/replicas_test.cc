// Two `structure serve` replicas on one PostgreSQL database (a private server the test starts),
// as a fleet runs them: a schema put through A is used by name through B at once, concurrent
// version puts through both lose none, and a database restart is ridden out (lookups from the
// last answer, writes 503 while it is down, everything committed there afterwards).
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "base/json.h"
#include "tests/server/http_client.h"
#include "tests/server/server_fixture.h"
#include "tests/support/postgres_server.h"

namespace structure::testing {
namespace {

const std::string kGlobex = "X-API-Key: key-globex";

std::string TicketPut(const std::string& version, const std::string& title) {
  return R"({"schema":{"type":"object","title":")" + title +
         R"(","properties":{"name":{"type":"string"},"priority":{"type":"integer","minimum":1,"maximum":5}},"required":["name","priority"],"additionalProperties":false},"version":")" +
         version + R"("})";
}

const std::string kNamedCall =
    R"({"prompt":"Mike, priority 2","schema":"ticket","schemaMode":"named"})";

class ReplicasTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string error;
    pg_ = PostgresServer::Start(&error).release();
    ASSERT_NE(pg_, nullptr) << error;
    sim_ = StartSim(&error).release();
    ASSERT_NE(sim_, nullptr) << error;
    for (ChildProcess** serve : {&a_, &b_}) {
      *serve = ChildProcess::StartListening(
                   {STRUCTURE_BINARY, "serve", "--config", DataFile("server.toml"), "--port", "0",
                    "--base-url", sim_->base_url(), "--database", pg_->url()},
                   std::chrono::seconds(60), &error)
                   .release();
      ASSERT_NE(*serve, nullptr) << error;
    }
  }
  static void TearDownTestSuite() {
    for (ChildProcess** p : {&a_, &b_, &sim_}) {
      delete *p;
      *p = nullptr;
    }
    delete pg_;
    pg_ = nullptr;
  }
  void SetUp() override {
    ASSERT_NE(a_, nullptr);
    ASSERT_NE(b_, nullptr);
  }

  static PostgresServer* pg_;
  static ChildProcess* sim_;
  static ChildProcess* a_;
  static ChildProcess* b_;
};
PostgresServer* ReplicasTest::pg_ = nullptr;
ChildProcess* ReplicasTest::sim_ = nullptr;
ChildProcess* ReplicasTest::a_ = nullptr;
ChildProcess* ReplicasTest::b_ = nullptr;

// The tests of this suite run in order on one database: each uses its own project.

TEST_F(ReplicasTest, APutThroughOneReplicaIsUsedByNameThroughTheOtherAtOnce) {
  HttpReply put = Http("PUT", a_->base_url() + "/v1/schemas/ticket?project=one",
                       TicketPut("1.0", "from A"), {kGlobex});
  ASSERT_EQ(put.status, 200) << put.body;
  HttpReply named = Http("POST", b_->base_url() + "/v1/structure",
                         R"({"prompt":"Mike, priority 2","schema":"ticket","schemaMode":"named",)"
                         R"("project":"one"})",
                         {kGlobex});
  ASSERT_EQ(named.status, 200) << named.body;
  EXPECT_NE(named.body.find(R"("schemaOrigin":"registry:project:one")"), std::string::npos)
      << named.body;
  HttpReply got = Http("GET", b_->base_url() + "/v1/schemas/ticket?project=one", "", {kGlobex});
  EXPECT_NE(got.body.find(R"("title":"from A")"), std::string::npos) << got.body;
}

TEST_F(ReplicasTest, ConcurrentVersionPutsThroughBothLoseNone) {
  constexpr int kPerReplica = 8;
  std::mutex mu;
  std::vector<std::string> accepted;
  std::vector<std::string> unexpected;
  std::vector<std::thread> threads;
  for (int r = 0; r < 2; ++r) {
    threads.emplace_back([&, r] {
      ChildProcess* serve = r == 0 ? a_ : b_;
      for (int i = 1; i <= kPerReplica; ++i) {
        std::string version = "1." + std::to_string(i * 2 + r);
        std::string title = "r" + std::to_string(r) + "-" + version;
        HttpReply put = Http("PUT", serve->base_url() + "/v1/schemas/ticket?project=two",
                             TicketPut(version, title), {kGlobex});
        std::lock_guard<std::mutex> lock(mu);
        if (put.status == 200) {
          accepted.push_back(title);
        } else if (put.status != 400 || put.body.find("would lower it") == std::string::npos) {
          unexpected.push_back(std::to_string(put.status) + " " + put.body);
        }
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_TRUE(unexpected.empty()) << unexpected.front();
  HttpReply history =
      Http("GET", a_->base_url() + "/v1/schemas/ticket/versions?project=two", "", {kGlobex});
  ASSERT_EQ(history.status, 200) << history.body;
  auto body = ParseJson(history.body);
  ASSERT_TRUE(body.ok());
  const Json* versions = body->find("versions");
  ASSERT_NE(versions, nullptr);
  std::map<std::string, int> seen;
  for (const Json& v : versions->as_array()) {
    const Json* schema = v.find("schema");
    ASSERT_NE(schema, nullptr);
    ++seen[schema->find("title")->as_string()];
  }
  EXPECT_EQ(versions->as_array().size(), accepted.size());
  for (const std::string& title : accepted) EXPECT_EQ(seen[title], 1) << title;
}

// Count of `needle` in `text`.
size_t Count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

TEST_F(ReplicasTest, EachConsoleListsTheCallsOfEveryReplica) {
  const std::string call =
      std::string(R"({"prompt":"Mike, priority 2","project":"four","schema":)") + kTicketSchema +
      "}";
  for (int i = 0; i < 5; ++i) {
    ChildProcess* serve = i < 2 ? a_ : b_;
    ASSERT_EQ(Http("POST", serve->base_url() + "/v1/structure", call, {kGlobex}).status, 200);
  }
  // Records are written off the request path in batches (every 200 ms).
  for (ChildProcess* console : {a_, b_}) {
    std::string body;
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (std::chrono::steady_clock::now() < deadline) {
      body = Http("GET", console->base_url() + "/v1/console/calls", "", {kGlobex}).body;
      if (Count(body, R"("project":"four")") >= 5) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    EXPECT_EQ(Count(body, R"("project":"four")"), 5u) << body;
  }
  std::string metrics = Http("GET", a_->base_url() + "/metrics").body;
  EXPECT_NE(metrics.find("structure_call_records_dropped_total 0"), std::string::npos);
}

TEST_F(ReplicasTest, RidesOutADatabaseRestart) {
  ASSERT_EQ(Http("PUT", a_->base_url() + "/v1/schemas/ticket?project=three",
                 TicketPut("1.0", "before"), {kGlobex})
                .status,
            200);
  // B has read it once: its last answer is what it serves during the outage.
  const std::string named = R"({"prompt":"Mike, priority 2","schema":"ticket",)"
                            R"("schemaMode":"named","project":"three"})";
  ASSERT_EQ(Http("POST", b_->base_url() + "/v1/structure", named, {kGlobex}).status, 200);

  pg_->Stop();
  for (const char* probe : {"/healthz", "/readyz"}) {
    HttpReply health = Http("GET", b_->base_url() + probe);
    EXPECT_EQ(health.status, 200) << probe;
    EXPECT_NE(health.body.find(R"("status":"degraded")"), std::string::npos) << health.body;
    EXPECT_NE(health.body.find("registry store: PostgreSQL database"), std::string::npos)
        << health.body;
  }
  HttpReply write = Http("PUT", b_->base_url() + "/v1/schemas/ticket?project=three",
                         TicketPut("1.1", "during"), {kGlobex});
  EXPECT_EQ(write.status, 503) << write.body;
  EXPECT_NE(write.body.find("registry store: PostgreSQL database"), std::string::npos)
      << write.body;
  EXPECT_NE(write.body.find("unavailable"), std::string::npos) << write.body;
  HttpReply during = Http("POST", b_->base_url() + "/v1/structure", named, {kGlobex});
  EXPECT_EQ(during.status, 200) << during.body;
  HttpReply inline_call = Http(
      "POST", a_->base_url() + "/v1/structure",
      std::string(R"({"prompt":"Mike, priority 2","schema":)") + kTicketSchema + "}", {kGlobex});
  EXPECT_EQ(inline_call.status, 200) << inline_call.body;

  std::string error;
  ASSERT_TRUE(pg_->Restart(&error)) << error;
  // Writes work again without restarting serve (reconnects back off up to 5 s).
  HttpReply after;
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (std::chrono::steady_clock::now() < deadline) {
    after = Http("PUT", b_->base_url() + "/v1/schemas/ticket?project=three",
                 TicketPut("1.1", "after"), {kGlobex});
    if (after.status == 200) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  ASSERT_EQ(after.status, 200) << after.body;
  // The call records made during the outage reach the database too (their writer backs off).
  std::string ready;
  deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  while (std::chrono::steady_clock::now() < deadline) {
    ready = Http("GET", b_->base_url() + "/readyz").body;
    if (ready == R"({"status":"ready"})") break;
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
  EXPECT_EQ(ready, R"({"status":"ready"})");
  HttpReply history =
      Http("GET", a_->base_url() + "/v1/schemas/ticket/versions?project=three", "", {kGlobex});
  EXPECT_NE(history.body.find(R"("title":"before")"), std::string::npos) << history.body;
  EXPECT_NE(history.body.find(R"("title":"after")"), std::string::npos) << history.body;
  EXPECT_EQ(history.body.find(R"("title":"during")"), std::string::npos) << history.body;
}

}  // namespace
}  // namespace structure::testing
