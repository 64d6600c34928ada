// Full round trips through the provider pool, the curl transport and `structure sim` on
// loopback, for every provider the simulator speaks: each outcome ends in the right Status
// and is retried or not as that Status means.
#include <gtest/gtest.h>

#include <map>

#include "actors/provider_pool.h"
#include "base/json.h"
#include "providers/transport/curl_transport.h"
#include "providers/wire.h"
#include "tests/support/sim_process.h"

namespace structure::actors {
namespace {

using providers::FinishKind;
using providers::ProviderKind;

struct Expect {
  const char* name;
  Code code;
  int attempts;
  FinishKind finish;  // when ok
};

class PoolSimTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { providers::InitCurlOnce(); }

  void SetUp() override {
    std::string error;
    sim_ = structure::testing::StartSim(
        STRUCTURE_BINARY,
        {"--scenario",
         std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/providers/sim_round_trip.json", "--seed",
         "7", "--invalid-key", "sk-bad"},
        &error);
    ASSERT_TRUE(sim_) << error;
    cfg_.set("scheduler.policy", caf::atom("sharing"));
    cfg_.set("scheduler.max-threads", 2);
    cfg_.add_message_types<caf::id_block::structure>();
    sys_ = std::make_unique<caf::actor_system>(cfg_);
  }

  void TearDown() override {
    for (auto& p : pools_) caf::anon_send_exit(p, caf::exit_reason::user_shutdown);
    pools_.clear();
    sys_.reset();
    sim_.reset();
  }

  ProviderPoolActor Pool(ProviderKind kind, const std::string& key) {
    PoolConfig c;
    c.endpoint.kind = kind;
    c.endpoint.base_url = sim_->base_url();
    c.endpoint.api_key = key;
    c.endpoint.timeout_ms = 10'000;
    c.max_retries = 2;
    c.max_rate_limit_retries = 2;
    c.backoff.initial = std::chrono::milliseconds(20);
    c.backoff.max = std::chrono::milliseconds(100);
    auto p = SpawnProviderPool(*sys_, c, providers::CurlTransportFactory());
    pools_.push_back(p);
    return p;
  }

  static PoolRequest Call(const std::string& text) {
    PoolRequest r;
    r.call.model = "sim-model";
    r.call.system = "Extract the person.";
    r.call.turns.push_back(providers::UserTurn(text));
    r.call.schema = *ParseJson(R"({"type":"object","properties":{"name":{"type":"string"},
      "age":{"type":"integer"}},"required":["name","age"],"additionalProperties":false})");
    r.call.schema_name = "person";
    // Room for the answer after the thinking (1 024 tokens in the simulator) that a model of
    // Gemini's default row does unasked.
    r.call.max_tokens = 2000;
    r.timeout = std::chrono::seconds(30);
    return r;
  }

  caf::actor_system_config cfg_;
  std::unique_ptr<caf::actor_system> sys_;
  std::unique_ptr<structure::testing::ChildProcess> sim_;
  std::vector<ProviderPoolActor> pools_;
};

TEST_F(PoolSimTest, EveryOutcomeEndsInTheRightStatusForEveryProvider) {
  const ProviderKind kinds[] = {ProviderKind::kOpenAi, ProviderKind::kAnthropic,
                                ProviderKind::kGemini, ProviderKind::kOllama};
  std::vector<Expect> table = {
      {"ok", Code::kOk, 1, FinishKind::kStop},
      {"refusal", Code::kOk, 1, FinishKind::kRefusal},
      {"truncated", Code::kOk, 1, FinishKind::kLength},
      {"schema400", Code::kInvalidArgument, 1, {}},
      {"429ra", Code::kResourceExhausted, 3, {}},
      {"429", Code::kResourceExhausted, 3, {}},
      {"500", Code::kUnavailable, 3, {}},
      {"reset", Code::kUnavailable, 3, {}},
  };
  caf::scoped_actor self{*sys_};
  struct Sent {
    ProviderKind kind;
    Expect expect;
    std::optional<PoolReply> reply;
  };
  std::vector<Sent> sent;
  for (ProviderKind kind : kinds) {
    auto pool = Pool(kind, "sk-good");
    for (const Expect& e : table) {
      sent.push_back({kind, e, std::nullopt});
      self->send(pool, Call(std::string("Ada Lovelace, 36. case:") + e.name));
    }
    auto bad = Pool(kind, "sk-bad");
    sent.push_back({kind, {"401", Code::kUnauthenticated, 1, {}}, std::nullopt});
    self->send(bad, Call("Ada. case:ok"));
  }
  // Replies arrive in any order: match them by pool, then by the order sent within a pool
  // is not guaranteed either, so match on the outcome signature instead.
  std::vector<PoolReply> replies;
  for (size_t i = 0; i < sent.size(); ++i) {
    self->receive([&](PoolReply& r) { replies.push_back(std::move(r)); },
                  caf::after(std::chrono::seconds(60)) >> [&] { ADD_FAILURE() << "timeout"; });
  }
  ASSERT_EQ(replies.size(), sent.size());
  // Count (code, attempts, finish) outcomes and compare with the expected multiset.
  std::map<std::string, int> want, got;
  auto key = [](Code c, int attempts, FinishKind f) {
    return std::string(CodeName(c)) + "/" + std::to_string(attempts) + "/" +
           (c == Code::kOk ? std::string(providers::FinishKindName(f)) : "-");
  };
  for (const Sent& s : sent) {
    FinishKind f = s.expect.finish;
    // Gemini has no refusal field (a declined answer is a SAFETY block); Ollama has no signal.
    if (s.expect.code == Code::kOk && std::string(s.expect.name) == "refusal") {
      if (s.kind == ProviderKind::kGemini) f = FinishKind::kSafety;
      if (s.kind == ProviderKind::kOllama) f = FinishKind::kStop;
    }
    ++want[key(s.expect.code, s.expect.attempts, f)];
  }
  for (const PoolReply& r : replies) {
    ++got[key(r.status.code(), r.attempts, r.reply.finish)];
    if (r.status.ok() && r.reply.finish == FinishKind::kStop &&
        r.reply.content.find("Ada") != std::string::npos &&
        r.reply.content.find("can't") == std::string::npos) {
      auto v = ParseJson(r.reply.content);
      ASSERT_TRUE(v.ok()) << r.reply.content;
      EXPECT_EQ(*v->find("age"), Json(36));
    }
  }
  EXPECT_EQ(got, want);
}

TEST_F(PoolSimTest, RandomTransientFaultsAreRetriedUntilEveryCallSucceeds) {
  sim_.reset();
  std::string error;
  sim_ = structure::testing::StartSim(STRUCTURE_BINARY,
                                      {"--seed", "11", "--error-rate", "0.2", "--reset-rate", "0.1",
                                       "--rate-429", "0.1", "--retry-hint", "retry-after-ms"},
                                      &error);
  ASSERT_TRUE(sim_) << error;
  caf::scoped_actor self{*sys_};
  PoolConfig c;
  c.endpoint.kind = ProviderKind::kOpenAi;
  c.endpoint.base_url = sim_->base_url();
  c.endpoint.api_key = "sk-good";
  c.max_retries = 8;
  c.backoff.initial = std::chrono::milliseconds(10);
  c.backoff.max = std::chrono::milliseconds(50);
  c.max_retry_after = std::chrono::milliseconds(200);
  auto pool = SpawnProviderPool(*sys_, c, providers::CurlTransportFactory());
  pools_.push_back(pool);
  constexpr int kCalls = 60;
  for (int i = 0; i < kCalls; ++i)
    self->send(pool, Call("Ada Lovelace, 36. item " + std::to_string(i)));
  int ok = 0, retried = 0;
  for (int i = 0; i < kCalls; ++i) {
    self->receive(
        [&](PoolReply& r) {
          EXPECT_TRUE(r.status.ok()) << r.status.ToString();
          ok += r.status.ok();
          retried += r.attempts > 1;
        },
        caf::after(std::chrono::seconds(60)) >> [&] { ADD_FAILURE() << "timeout"; });
  }
  EXPECT_EQ(ok, kCalls);
  EXPECT_GT(retried, 0);  // the faults were really injected and absorbed
}

}  // namespace
}  // namespace structure::actors
