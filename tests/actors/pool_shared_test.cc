// Provider pools sharing their limits through a real redis-server (the shared store), with real
// round trips to `structure sim`: the store rules the rates of every pool on one key, a 429 is
// published to all of them, and a store that stops and starts again costs no call.
#include <gtest/gtest.h>

#include <fstream>
#include <future>

#include "actors/provider_pool.h"
#include "base/json.h"
#include "providers/transport/curl_transport.h"
#include "tests/support/redis_server.h"
#include "tests/support/sim_process.h"

namespace structure::actors {
namespace {

using namespace std::chrono_literals;

template <class Pred>
bool Eventually(Pred pred, std::chrono::seconds limit = 60s) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < deadline) {
    if (pred()) return true;
    std::this_thread::sleep_for(20ms);
  }
  return pred();
}

class PoolSharedTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { providers::InitCurlOnce(); }

  void SetUp() override {
    std::string error;
    redis_ = structure::testing::RedisServer::Start(&error);
    ASSERT_TRUE(redis_) << error;
    registry::RedisOptions o;
    o.port = redis_->port();
    o.name = redis_->url();
    o.timeout = 5s;
    o.retry_every = 100ms;
    store_ = std::make_shared<registry::RedisClient>(o);
    cfg_.set("scheduler.policy", caf::atom("sharing"));
    cfg_.set("scheduler.max-threads", 2);
    cfg_.add_message_types<caf::id_block::structure>();
    sys_ = std::make_unique<caf::actor_system>(cfg_);
  }

  void StartSim(std::vector<std::string> args) {
    std::string error;
    sim_ = structure::testing::StartSim(STRUCTURE_BINARY, args, &error);
    ASSERT_TRUE(sim_) << error;
  }

  void TearDown() override {
    for (auto& p : pools_) caf::anon_send_exit(p, caf::exit_reason::user_shutdown);
    pools_.clear();
    sys_.reset();
    store_.reset();
    sim_.reset();
  }

  ProviderPoolActor Pool(double rpm, double fallback_share = 1, int rate_limit_retries = 30) {
    PoolConfig c;
    c.endpoint.kind = providers::ProviderKind::kOpenAi;
    c.endpoint.base_url = sim_->base_url();
    c.endpoint.api_key = "sk-shared";
    c.endpoint.timeout_ms = 20'000;
    c.limits.requests_per_minute = rpm;
    c.max_rate_limit_retries = rate_limit_retries;
    c.shared.client = store_;
    c.shared.fallback_share = fallback_share;
    auto p = SpawnProviderPool(*sys_, c, providers::CurlTransportFactory());
    pools_.push_back(p);
    return p;
  }

  static PoolRequest Call() {
    PoolRequest r;
    r.call.model = "sim-model";
    r.call.turns.push_back(providers::UserTurn("Ada, 36"));
    r.call.schema = *ParseJson(R"({"type":"object","properties":{"name":{"type":"string"}},
      "required":["name"],"additionalProperties":false})");
    r.call.schema_name = "person";
    r.call.max_tokens = 50;
    r.timeout = 120s;
    return r;
  }

  // Sends n calls to each pool at once; returns every reply.
  std::vector<PoolReply> RunCalls(const std::vector<ProviderPoolActor>& pools, int n) {
    caf::scoped_actor self{*sys_};
    for (const auto& p : pools) {
      for (int i = 0; i < n; ++i) self->send(p, Call());
    }
    std::vector<PoolReply> replies;
    for (size_t i = 0; i < pools.size() * static_cast<size_t>(n); ++i) {
      self->receive([&](PoolReply& r) { replies.push_back(std::move(r)); },
                    caf::after(std::chrono::seconds(180)) >> [&] { ADD_FAILURE() << "no reply"; });
    }
    return replies;
  }

  PoolStats Stats(const ProviderPoolActor& pool) {
    caf::scoped_actor self{*sys_};
    PoolStats out;
    self->request(pool, caf::infinite, stats_atom_v)
        .receive([&](PoolStats s) { out = s; }, [&](caf::error&) {});
    return out;
  }

  Result<registry::RedisReply> Redis(std::vector<std::string> argv) {
    std::promise<Result<registry::RedisReply>> p;
    auto f = p.get_future();
    store_->Command(std::move(argv),
                    [&p](Result<registry::RedisReply> r) { p.set_value(std::move(r)); });
    return f.get();
  }

  std::unique_ptr<structure::testing::RedisServer> redis_;
  std::shared_ptr<registry::RedisClient> store_;
  caf::actor_system_config cfg_;
  std::unique_ptr<caf::actor_system> sys_;
  std::unique_ptr<structure::testing::ChildProcess> sim_;
  std::vector<ProviderPoolActor> pools_;
};

TEST_F(PoolSharedTest, TwoPoolsOnOneKeyDrawFromOneLimit) {
  StartSim({});
  // Each pool alone could start 15 calls within 0.5 s (a burst of 10, then 10 a second); drawing
  // from one cell, the 30 calls need at least 2 s, so the last one queues for well over 1 s.
  auto a = Pool(600), b = Pool(600);
  auto replies = RunCalls({a, b}, 15);
  int64_t max_queued_us = 0;
  for (const auto& r : replies) {
    EXPECT_TRUE(r.status.ok()) << r.status.message();
    max_queued_us = std::max(max_queued_us, r.queued_us);
  }
  EXPECT_GE(max_queued_us, 1'500'000);
  for (const auto& p : {a, b}) {
    PoolStats s = Stats(p);
    EXPECT_TRUE(s.shared);
    EXPECT_GT(s.shared_asks, 0);
    EXPECT_EQ(s.store_fallbacks, 0);
    EXPECT_EQ(s.rate_limited, 0);
  }
}

TEST_F(PoolSharedTest, A429IsPublishedSoEveryProcessPauses) {
  std::string scenario =
      ::testing::TempDir() + "pool_shared_429_" + std::to_string(getpid()) + ".json";
  std::ofstream(scenario) << R"({"rules": [{"name": "r429", "contains": "Ada", "reply": {"error":
      {"status": 429, "message": "slow down", "headers": {"Retry-After": "30"}}}}]})";
  StartSim({"--scenario", scenario});
  auto pool = Pool(6000, 1, /*rate_limit_retries=*/0);
  auto replies = RunCalls({pool}, 1);
  ASSERT_EQ(replies.size(), 1u);
  EXPECT_EQ(replies[0].status.code(), Code::kResourceExhausted);
  providers::Endpoint e;
  e.base_url = sim_->base_url();
  e.api_key = "sk-shared";
  std::string pause = providers::SharedKeysFor(e).pause;
  // The server's Retry-After (30 s), not a backoff of the pool's own.
  ASSERT_TRUE(Eventually([&] {
    auto ttl = Redis({"PTTL", pause});
    return ttl.ok() && ttl->integer > 10'000;
  }));
  std::remove(scenario.c_str());
}

TEST_F(PoolSharedTest, NoCallFailsWhileTheStoreIsDownAndTheStoreRulesAgainWhenItIsBack) {
  StartSim({});
  auto pool = Pool(60000, 0.5);
  for (const auto& r : RunCalls({pool}, 5)) EXPECT_TRUE(r.status.ok()) << r.status.message();
  EXPECT_TRUE(Stats(pool).shared);
  redis_->Stop();
  for (const auto& r : RunCalls({pool}, 20)) EXPECT_TRUE(r.status.ok()) << r.status.message();
  PoolStats down = Stats(pool);
  EXPECT_FALSE(down.shared);
  EXPECT_GE(down.store_fallbacks, 1);
  std::string error;
  ASSERT_TRUE(redis_->Restart(&error)) << error;
  ASSERT_TRUE(Eventually([&] {
    for (const auto& r : RunCalls({pool}, 2)) EXPECT_TRUE(r.status.ok()) << r.status.message();
    return Stats(pool).shared;
  }));
  EXPECT_EQ(Stats(pool).store_fallbacks, down.store_fallbacks);
}

}  // namespace
}  // namespace structure::actors
