// The shared store's client against a real redis-server on a private loopback port: pipelined
// commands, scripts (also after SCRIPT FLUSH), AUTH and SELECT, and what happens while the
// server is down: commands fail at once, the outage is reported once, the client reconnects.
// A port that takes connections without answering as Redis (another server, a paused
// redis-server) is not a store that answers, and a flapping store is reported at most once per
// interval.
#include "registry/redis_client.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <future>
#include <mutex>
#include <thread>

#include "tests/support/fake_tcp_server.h"
#include "tests/support/redis_server.h"

namespace structure::registry {
namespace {

using namespace std::chrono_literals;

// Waits (generously: the machine may be loaded) until pred() holds.
template <class Pred>
bool Eventually(Pred pred, std::chrono::seconds limit = 60s) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(10ms);
  }
  return pred();
}

Result<RedisReply> Send(RedisClient& client, std::vector<std::string> argv) {
  std::promise<Result<RedisReply>> p;
  auto f = p.get_future();
  client.Command(std::move(argv), [&p](Result<RedisReply> r) { p.set_value(std::move(r)); });
  return f.get();
}

RedisOptions OptionsFor(int port) {
  RedisOptions o;
  o.port = port;
  o.name = "redis://127.0.0.1:" + std::to_string(port) + "/0";
  o.timeout = 5s;  // loaded CI machines; the timeout test sets its own
  o.retry_every = 50ms;
  return o;
}

class RedisClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    server_ = testing::RedisServer::Start(&err);
    ASSERT_NE(server_, nullptr) << err;
  }
  std::unique_ptr<testing::RedisServer> server_;
};

TEST_F(RedisClientTest, AnswersCommandsInOrderFromManyThreads) {
  RedisClient client(OptionsFor(server_->port()));
  auto set = Send(client, {"SET", "k", std::string("a\0b", 3)});
  ASSERT_TRUE(set.ok()) << set.status().message();
  EXPECT_EQ(set->type, RedisReply::Type::kStatus);
  auto get = Send(client, {"GET", "k"});
  ASSERT_TRUE(get.ok());
  EXPECT_EQ(get->str, std::string("a\0b", 3));  // binary safe
  EXPECT_EQ(Send(client, {"GET", "missing"})->type, RedisReply::Type::kNil);

  // 4 threads x 200 INCRs each, queued without waiting: every one answered, in order per thread.
  std::atomic<int> answered{0};
  std::vector<std::thread> threads;
  std::vector<std::vector<int64_t>> seen(4);
  std::mutex mu;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 200; ++i) {
        client.Command({"INCR", "n" + std::to_string(t)}, [&, t](Result<RedisReply> r) {
          ASSERT_TRUE(r.ok());
          std::lock_guard<std::mutex> l(mu);
          seen[t].push_back(r->integer);
          ++answered;
        });
      }
    });
  }
  for (auto& th : threads) th.join();
  ASSERT_TRUE(Eventually([&] { return answered.load() == 800; }));
  for (int t = 0; t < 4; ++t) {
    ASSERT_EQ(seen[t].size(), 200u);
    for (int i = 0; i < 200; ++i) EXPECT_EQ(seen[t][i], i + 1);
  }
  auto err = Send(client, {"INCR", "k"});  // not an integer: the server's error, not an outage
  ASSERT_FALSE(err.ok());
  EXPECT_EQ(err.status().code(), Code::kInternal);
  EXPECT_NE(err.status().message().find("not an integer"), std::string::npos);
  EXPECT_TRUE(client.up());
}

TEST_F(RedisClientTest, RunsScriptsAndReloadsThemAfterAFlush) {
  static const RedisScript kScript{"return {tonumber(ARGV[1]) * 2, redis.call('INCR', KEYS[1])}"};
  RedisClient client(OptionsFor(server_->port()));
  auto eval = [&](const std::string& arg) {
    std::promise<Result<RedisReply>> p;
    auto f = p.get_future();
    client.Eval(&kScript, {"counter"}, {arg},
                [&p](Result<RedisReply> r) { p.set_value(std::move(r)); });
    return f.get();
  };
  auto r = eval("21");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->elements.size(), 2u);
  EXPECT_EQ(r->elements[0].integer, 42);
  EXPECT_EQ(r->elements[1].integer, 1);
  ASSERT_TRUE(Send(client, {"SCRIPT", "FLUSH"}).ok());
  r = eval("5");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->elements[0].integer, 10);
  EXPECT_EQ(r->elements[1].integer, 2);
  r = eval("6");  // loaded again
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->elements[1].integer, 3);
}

TEST_F(RedisClientTest, ReportsAnOutageOnceFailsFastAndComesBack) {
  std::atomic<int> downs{0}, ups{0};
  RedisOptions o = OptionsFor(server_->port());
  o.report_every = std::chrono::milliseconds(0);  // every change reported at once
  o.on_down = [&](const std::string&, int) { ++downs; };
  o.on_up = [&](int) { ++ups; };
  RedisClient client(o);
  ASSERT_TRUE(Send(client, {"SET", "a", "1"}).ok());
  server_->Stop();
  for (int i = 0; i < 5; ++i) {
    auto r = Send(client, {"GET", "a"});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Code::kUnavailable);
    EXPECT_EQ(r.status().message().rfind(o.name + ": ", 0), 0u) << r.status().message();
  }
  EXPECT_FALSE(client.up());
  EXPECT_EQ(downs.load(), 1);
  EXPECT_EQ(ups.load(), 0);
  std::string err;
  ASSERT_TRUE(server_->Restart(&err)) << err;
  ASSERT_TRUE(Eventually([&] { return client.up(); }));  // reconnects with nothing queued
  EXPECT_EQ(ups.load(), 1);
  auto r = Send(client, {"SET", "a", "2"});
  EXPECT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(downs.load(), 1);
}

// Redis out of memory under `noeviction` answers every write with an OOM error while PING and
// reads still work: the client counts that as the store being down (reported, commands
// kUnavailable), and as up again only once a write goes through.
TEST_F(RedisClientTest, AServerThatRefusesWritesIsDownUntilItTakesThemAgain) {
  std::atomic<int> downs{0};
  std::string reported;
  std::mutex mu;
  RedisOptions o = OptionsFor(server_->port());
  o.report_every = std::chrono::milliseconds(0);
  o.on_down = [&](const std::string& why, int) {
    std::lock_guard<std::mutex> lock(mu);
    reported = why;
    ++downs;
  };
  RedisClient client(o);
  ASSERT_TRUE(Send(client, {"SET", "a", "1"}).ok());
  ASSERT_NE(server_->Query("CONFIG SET maxmemory-policy noeviction").find("+OK"),
            std::string::npos);
  ASSERT_NE(server_->Query("CONFIG SET maxmemory 1").find("+OK"), std::string::npos);
  auto refused = Send(client, {"SET", "a", "2"});
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.status().code(), Code::kUnavailable);
  EXPECT_NE(refused.status().message().find("the server refuses writes: OOM"), std::string::npos)
      << refused.status().message();
  EXPECT_FALSE(client.up());
  EXPECT_EQ(downs.load(), 1);
  {
    std::lock_guard<std::mutex> lock(mu);
    EXPECT_NE(reported.find("refuses writes: OOM"), std::string::npos) << reported;
  }
  // Reconnects (PING answers) do not make it up while the probe write is refused.
  std::this_thread::sleep_for(300ms);
  EXPECT_FALSE(client.up());
  EXPECT_EQ(Send(client, {"GET", "a"}).status().code(), Code::kUnavailable);
  ASSERT_NE(server_->Query("CONFIG SET maxmemory 0").find("+OK"), std::string::npos);
  ASSERT_TRUE(Eventually([&] { return client.up(); }));
  EXPECT_TRUE(Send(client, {"SET", "a", "3"}).ok());
}

TEST(RedisClientDownTest, StartsWhileTheServerIsDownAndPingSaysWhy) {
  std::string err;
  auto server = testing::RedisServer::Start(&err);
  ASSERT_NE(server, nullptr) << err;
  int port = server->port();
  server->Stop();
  std::atomic<int> downs{0};
  RedisOptions o = OptionsFor(port);
  o.on_down = [&](const std::string& why, int) {
    EXPECT_NE(why.find("refused"), std::string::npos) << why;
    ++downs;
  };
  RedisClient client(o);
  auto r = Send(client, {"PING"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kUnavailable);
  EXPECT_EQ(downs.load(), 1);
  Status ping = RedisClient::Ping(o);
  EXPECT_EQ(ping.code(), Code::kUnavailable);
  EXPECT_NE(ping.message().find(o.name), std::string::npos) << ping.message();
  ASSERT_TRUE(server->Restart(&err)) << err;
  EXPECT_TRUE(RedisClient::Ping(o).ok());
  ASSERT_TRUE(Eventually([&] { return client.up(); }));
  EXPECT_TRUE(Send(client, {"PING"}).ok());
}

TEST(RedisClientAuthTest, AuthenticatesSelectsTheDatabaseAndNeverShowsThePassword) {
  std::string err;
  auto server = testing::RedisServer::Start(&err, {"--requirepass", "s3cret-pw"});
  ASSERT_NE(server, nullptr) << err;
  RedisOptions o = OptionsFor(server->port());
  o.password = "wrong-pw";
  Status ping = RedisClient::Ping(o);
  ASSERT_FALSE(ping.ok());
  EXPECT_NE(ping.message().find("AUTH refused"), std::string::npos) << ping.message();
  EXPECT_EQ(ping.message().find("wrong-pw"), std::string::npos) << ping.message();
  o.password = "s3cret-pw";
  EXPECT_TRUE(RedisClient::Ping(o).ok());
  o.db = 3;
  RedisClient three(o);
  ASSERT_TRUE(Send(three, {"SET", "where", "db3"}).ok());
  o.db = 0;
  RedisClient zero(o);
  EXPECT_EQ(Send(zero, {"GET", "where"})->type, RedisReply::Type::kNil);
  o.db = 99;  // redis has 16 databases by default
  ping = RedisClient::Ping(o);
  EXPECT_NE(ping.message().find("SELECT refused"), std::string::npos) << ping.message();
}

TEST(RedisClientTimeoutTest, AServerThatNeverAnswersIsUnavailableAfterTheTimeout) {
  // A listening socket nobody accepts on: connect succeeds (the kernel's backlog), replies never
  // come.
  uint16_t port = 0;
  int fd = testing::LoopbackListener(&port);
  ASSERT_GE(fd, 0);
  RedisOptions o = OptionsFor(port);
  o.timeout = 200ms;
  RedisClient client(o);
  auto r = Send(client, {"PING"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kUnavailable);
  EXPECT_NE(r.status().message().find("no answer within 200 ms"), std::string::npos)
      << r.status().message();
  close(fd);
}

TEST(RedisClientNotRedisTest, AServerThatIsNotRedisNeverAnswersAgain) {
  for (std::string reply : {std::string("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n"),
                            std::string("+OK\r\n"), std::string()}) {
    SCOPED_TRACE(reply);
    testing::FakeTcpServer fake(reply);
    std::atomic<int> downs{0}, ups{0};
    std::string why;
    std::mutex mu;
    RedisOptions o = OptionsFor(fake.port());
    o.timeout = 500ms;
    o.on_down = [&](const std::string& error, int) {
      std::lock_guard<std::mutex> lock(mu);
      why = error;
      ++downs;
    };
    o.on_up = [&](int) { ++ups; };
    RedisClient client(o);
    // Many reconnects (every 50 ms), each taking the connection and getting no PONG.
    ASSERT_TRUE(Eventually([&] { return fake.connections() >= 10; }));
    auto r = Send(client, {"GET", "a"});
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Code::kUnavailable);
    EXPECT_FALSE(client.up());
    EXPECT_EQ(downs.load(), 1);
    EXPECT_EQ(ups.load(), 0);
    std::lock_guard<std::mutex> lock(mu);
    if (reply.rfind("HTTP", 0) == 0) {
      EXPECT_NE(why.find("does not answer as Redis does"), std::string::npos) << why;
    } else if (!reply.empty()) {
      EXPECT_NE(why.find("not a Redis server"), std::string::npos) << why;
    }
    Status ping = RedisClient::Ping(o);
    EXPECT_EQ(ping.code(), Code::kUnavailable) << ping.message();
  }
}

TEST(RedisClientPausedTest, APausedServerIsDownUntilItAnswersAgain) {
  std::string err;
  auto server = testing::RedisServer::Start(&err);
  ASSERT_NE(server, nullptr) << err;
  std::atomic<int> downs{0}, ups{0};
  RedisOptions o = OptionsFor(server->port());
  o.timeout = 200ms;
  o.report_every = 0ms;  // every change reported: the test counts them
  o.on_down = [&](const std::string&, int) { ++downs; };
  o.on_up = [&](int) { ++ups; };
  RedisClient client(o);
  ASSERT_TRUE(Send(client, {"SET", "a", "1"}).ok());
  server->Pause();
  auto r = Send(client, {"GET", "a"});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("no answer within 200 ms"), std::string::npos)
      << r.status().message();
  // Reconnects keep being accepted by the paused server's backlog; none of them is an answer.
  for (int i = 0; i < 10; ++i) {
    EXPECT_FALSE(Send(client, {"GET", "a"}).ok());
    std::this_thread::sleep_for(60ms);
  }
  EXPECT_FALSE(client.up());
  EXPECT_EQ(downs.load(), 1);
  EXPECT_EQ(ups.load(), 0);
  server->Resume();
  ASSERT_TRUE(Eventually([&] { return client.up(); }));
  EXPECT_EQ(ups.load(), 1);
  EXPECT_TRUE(Send(client, {"GET", "a"}).ok());
}

TEST(RedisClientFlapTest, AFlappingStoreIsReportedOncePerIntervalWithItsCount) {
  std::string err;
  auto server = testing::RedisServer::Start(&err);
  ASSERT_NE(server, nullptr) << err;
  std::mutex mu;
  std::vector<std::pair<bool, int>> reports;  // {up, changes}
  RedisOptions o = OptionsFor(server->port());
  o.timeout = 200ms;
  o.report_every = 1h;
  o.on_down = [&](const std::string&, int n) {
    std::lock_guard<std::mutex> lock(mu);
    reports.push_back({false, n});
  };
  o.on_up = [&](int n) {
    std::lock_guard<std::mutex> lock(mu);
    reports.push_back({true, n});
  };
  auto count = [&] {
    std::lock_guard<std::mutex> lock(mu);
    return reports.size();
  };
  {
    RedisClient client(o);
    ASSERT_TRUE(Send(client, {"PING"}).ok());
    for (int i = 0; i < 3; ++i) {
      server->Pause();
      EXPECT_FALSE(Send(client, {"PING"}).ok());
      server->Resume();
      ASSERT_TRUE(Eventually([&] { return client.up(); }));
    }
    // Down, up, down, up, down, up: the outage and the first recovery are reported at once (each
    // state has its own interval), the rest wait for an hour and end where the last report is.
    EXPECT_EQ(count(), 2u);
  }
  ASSERT_EQ(reports.size(), 2u);
  EXPECT_FALSE(reports[0].first);
  EXPECT_EQ(reports[0].second, 1);
  EXPECT_TRUE(reports[1].first);
  EXPECT_EQ(reports[1].second, 1);

  // With a short interval the state it ends in is reported once the interval is over: reports
  // alternate (each one a change from the one before, so an odd number of changes apart) and
  // the last one says it answers.
  reports.clear();
  o.report_every = 300ms;
  RedisClient client(o);
  ASSERT_TRUE(Send(client, {"PING"}).ok());
  for (int i = 0; i < 2; ++i) {
    server->Pause();
    EXPECT_FALSE(Send(client, {"PING"}).ok());
    server->Resume();
    ASSERT_TRUE(Eventually([&] { return client.up(); }));
  }
  ASSERT_TRUE(Eventually([&] {
    std::lock_guard<std::mutex> lock(mu);
    return !reports.empty() && reports.back().first;
  }));
  std::lock_guard<std::mutex> lock(mu);
  int changes = 0;
  for (size_t i = 0; i < reports.size(); ++i) {
    EXPECT_EQ(reports[i].first, i % 2 == 1) << i;
    EXPECT_EQ(reports[i].second % 2, 1) << i;
    changes += reports[i].second;
  }
  EXPECT_LE(changes, 4);
}

}  // namespace
}  // namespace structure::registry
