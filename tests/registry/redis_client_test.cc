// The shared store's client against a real redis-server on a private loopback port: pipelined
// commands, scripts (also after SCRIPT FLUSH), AUTH and SELECT, and what happens while the
// server is down: commands fail at once, the outage is reported once, the client reconnects.
#include "registry/redis_client.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <atomic>
#include <future>

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
  o.on_down = [&](const std::string&) { ++downs; };
  o.on_up = [&] { ++ups; };
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

TEST(RedisClientDownTest, StartsWhileTheServerIsDownAndPingSaysWhy) {
  std::string err;
  auto server = testing::RedisServer::Start(&err);
  ASSERT_NE(server, nullptr) << err;
  int port = server->port();
  server->Stop();
  std::atomic<int> downs{0};
  RedisOptions o = OptionsFor(port);
  o.on_down = [&](const std::string& why) {
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
  int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  ASSERT_EQ(bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof(a)), 0);
  ASSERT_EQ(listen(fd, 16), 0);
  ASSERT_EQ(getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len), 0);
  RedisOptions o = OptionsFor(ntohs(a.sin_port));
  o.timeout = 200ms;
  RedisClient client(o);
  auto r = Send(client, {"PING"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Code::kUnavailable);
  EXPECT_NE(r.status().message().find("no answer within 200 ms"), std::string::npos)
      << r.status().message();
  close(fd);
}

}  // namespace
}  // namespace structure::registry
