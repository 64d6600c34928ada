// The shared limits' Lua scripts in a real redis-server, on a fixed clock (AcquireAsk::now_us) so
// every admission and wait is exact: they must match the local TokenBucket's, across clients.
#include "providers/admission/shared_limit.h"

#include <gtest/gtest.h>

#include <future>

#include "registry/redis_client.h"
#include "tests/support/redis_server.h"

namespace structure::providers {
namespace {

using namespace std::chrono_literals;
using registry::RedisClient;
using registry::RedisReply;

const registry::RedisScript kAcquire{std::string(kAcquireScript)};
const registry::RedisScript kPause{std::string(kPauseScript)};
constexpr int64_t kT = 1'000'000'000'000'000;  // a fixed "now" in microseconds

Result<RedisReply> Eval(RedisClient& c, const registry::RedisScript& s,
                        std::vector<std::string> keys, std::vector<std::string> args) {
  std::promise<Result<RedisReply>> p;
  auto f = p.get_future();
  c.Eval(&s, std::move(keys), std::move(args),
         [&p](Result<RedisReply> r) { p.set_value(std::move(r)); });
  return f.get();
}

class SharedLimitTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string err;
    server_ = testing::RedisServer::Start(&err);
    ASSERT_NE(server_, nullptr) << err;
    registry::RedisOptions o;
    o.port = server_->port();
    o.name = server_->url();
    o.timeout = 10s;
    a_ = std::make_unique<RedisClient>(o);
    b_ = std::make_unique<RedisClient>(o);
    Endpoint e;
    e.base_url = "http://127.0.0.1:9";
    e.api_key = "sk-test-key";
    keys_ = SharedKeysFor(e);
  }

  SharedGrant Acquire(RedisClient& c, const Limits& l, std::vector<int64_t> est, int64_t now,
                      int64_t refund = 0) {
    AcquireAsk ask{est, refund, now};
    auto r = Eval(c, kAcquire, SharedKeyList(keys_), AcquireArgs(l, ask));
    EXPECT_TRUE(r.ok()) << r.status().message();
    if (!r.ok()) return {};
    std::vector<int64_t> ints;
    for (const auto& e : r->elements) ints.push_back(e.integer);
    auto g = ParseGrant(ints, est.size());
    EXPECT_TRUE(g.ok()) << g.status().message();
    return g.ok() ? *g : SharedGrant{};
  }

  static int64_t Us(Duration d) {
    return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
  }

  std::unique_ptr<testing::RedisServer> server_;
  std::unique_ptr<RedisClient> a_, b_;
  SharedLimitKeys keys_;
};

Limits Rpm(double rpm, double tpm = 0) {
  Limits l;
  l.requests_per_minute = rpm;
  l.tokens_per_minute = tpm;
  return l;
}

TEST_F(SharedLimitTest, RequestsPerMinuteAdmitABurstThenOnePerInterval) {
  Limits l = Rpm(600);  // 10 a second, a burst of 10
  SharedGrant g = Acquire(*a_, l, std::vector<int64_t>(12, 1), kT);
  EXPECT_EQ(g.granted, 10u);
  EXPECT_EQ(Us(g.wait), 100'000);         // the 11th fits one interval later
  g = Acquire(*b_, l, {1}, kT + 99'999);  // another client, the same cell
  EXPECT_EQ(g.granted, 0u);
  EXPECT_EQ(Us(g.wait), 1);
  g = Acquire(*b_, l, {1, 1}, kT + 100'000);
  EXPECT_EQ(g.granted, 1u);
  EXPECT_EQ(Us(g.wait), 100'000);
}

TEST_F(SharedLimitTest, TwoClientsTogetherGetExactlyTheLimit) {
  Limits l = Rpm(600);
  size_t total = 0;
  // Both ask for 5 every 10 ms for 10 s: the burst of 10 plus 10 a second, no more, no less.
  for (int64_t t = 0; t < 10'000'000; t += 10'000) {
    total += Acquire(*a_, l, std::vector<int64_t>(5, 1), kT + t).granted;
    total += Acquire(*b_, l, std::vector<int64_t>(5, 1), kT + t + 5'000).granted;
  }
  EXPECT_EQ(total, 10u + 100u - 1u);  // the 100th refill lands at exactly 10 s, after the loop
}

TEST_F(SharedLimitTest, TokensPerMinuteTakeEstimatesAndRefundsGiveThemBack) {
  Limits l = Rpm(0, 6000);  // 100 tokens a second, capacity 100
  SharedGrant g = Acquire(*a_, l, {60, 60}, kT);
  EXPECT_EQ(g.granted, 1u);
  EXPECT_EQ(Us(g.wait), 200'000);                // 20 more tokens needed
  g = Acquire(*b_, l, {60}, kT, /*refund=*/60);  // the first used nothing after all
  EXPECT_EQ(g.granted, 1u);
  // A cost above the capacity waits for a full cell and leaves a debt.
  g = Acquire(*a_, l, {150}, kT + 600'000);
  EXPECT_EQ(g.granted, 1u);
  g = Acquire(*a_, l, {1}, kT + 600'000);
  EXPECT_EQ(g.granted, 0u);
  EXPECT_EQ(Us(g.wait), 1'500'000 - 990'000);
  // Reported usage above the estimate is taken as debt (a negative refund).
  g = Acquire(*b_, l, {}, kT + 600'000, /*refund=*/-100);
  EXPECT_EQ(g.granted, 0u);
  g = Acquire(*a_, l, {1}, kT + 600'000);
  EXPECT_EQ(Us(g.wait), 2'500'000 - 990'000);
}

TEST_F(SharedLimitTest, APausePublishedByOneClientStopsEveryClient) {
  Limits l = Rpm(600);
  auto r = Eval(*a_, kPause, SharedKeyList(keys_), PauseArgs(2s, kT));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->integer, 2'000'000);
  r = Eval(*b_, kPause, SharedKeyList(keys_), PauseArgs(500ms, kT + 100'000));  // never shortens
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->integer, 1'900'000);
  SharedGrant g = Acquire(*b_, l, {1}, kT + 1'000'000);
  EXPECT_EQ(g.granted, 0u);
  EXPECT_EQ(Us(g.wait), 1'000'000);
  g = Acquire(*b_, l, {1}, kT + 2'000'000);
  EXPECT_EQ(g.granted, 1u);
}

TEST_F(SharedLimitTest, UnlimitedEndpointsGrantEverythingAndWriteNoCells) {
  SharedGrant g = Acquire(*a_, Rpm(0, 0), std::vector<int64_t>(100, 5000), kT);
  EXPECT_EQ(g.granted, 100u);
  std::promise<Result<RedisReply>> p;
  auto f = p.get_future();
  a_->Command({"EXISTS", keys_.requests, keys_.tokens},
              [&p](Result<RedisReply> r) { p.set_value(std::move(r)); });
  auto n = f.get();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(n->integer, 0);
}

TEST_F(SharedLimitTest, RealClockCellsExpireWhenFull) {
  // now_us 0: the server's TIME. The cell's TTL is the time until it is full again, plus 10 s.
  SharedGrant g = Acquire(*a_, Rpm(60), {1}, 0);  // 1 a second, capacity 1
  EXPECT_EQ(g.granted, 1u);
  std::promise<Result<RedisReply>> p;
  auto f = p.get_future();
  a_->Command({"PTTL", keys_.requests}, [&p](Result<RedisReply> r) { p.set_value(std::move(r)); });
  auto ttl = f.get();
  ASSERT_TRUE(ttl.ok());
  EXPECT_GT(ttl->integer, 0);
  EXPECT_LE(ttl->integer, 11'000);
}

TEST(SharedLimitKeysTest, NamesHashTheKeyAndSeparateEndpoints) {
  Endpoint e;
  e.base_url = "https://api.openai.com";
  e.api_key = "sk-live-abcdef";
  SharedLimitKeys k = SharedKeysFor(e);
  for (const std::string* name : {&k.requests, &k.tokens, &k.pause}) {
    EXPECT_EQ(name->find("sk-live"), std::string::npos) << *name;
    EXPECT_EQ(name->rfind("structure:limit:{", 0), 0u) << *name;
  }
  EXPECT_EQ(k.requests.substr(0, k.requests.find('}')), k.pause.substr(0, k.pause.find('}')));
  Endpoint other = e;
  other.api_key = "sk-live-other";
  EXPECT_NE(SharedKeysFor(other).requests, k.requests);
  other = e;
  other.kind = ProviderKind::kAnthropic;
  EXPECT_NE(SharedKeysFor(other).requests, k.requests);
  EXPECT_EQ(SharedKeysFor(e).requests, k.requests);
}

TEST(SharedLimitArgsTest, ParseGrantRefusesAnythingButTwoSaneIntegers) {
  EXPECT_TRUE(ParseGrant({2, 0}, 2).ok());
  EXPECT_FALSE(ParseGrant({3, 0}, 2).ok());
  EXPECT_FALSE(ParseGrant({-1, 0}, 2).ok());
  EXPECT_FALSE(ParseGrant({1, -5}, 2).ok());
  EXPECT_FALSE(ParseGrant({1}, 2).ok());
}

}  // namespace
}  // namespace structure::providers
