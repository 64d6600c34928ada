// Fixture for provider-pool tests on CAF's deterministic "testing" scheduler with a fake
// transport: the test decides when and how each transfer completes, and moves the clock.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <vector>

#include "actors/provider_pool.h"
#include "providers/transport/transport.h"

namespace structure::actors::testing {

struct FakeIo {
  std::vector<std::pair<uint64_t, providers::HttpRequest>> started;
  std::vector<uint64_t> cancelled;
  providers::CompletionSink sink;
  bool shut_down = false;
};

class FakeTransport : public providers::Transport {
 public:
  explicit FakeTransport(std::shared_ptr<FakeIo> io) : io_(std::move(io)) {}
  void Start(uint64_t id, providers::HttpRequest r) override {
    io_->started.emplace_back(id, std::move(r));
  }
  void Cancel(uint64_t id) override { io_->cancelled.push_back(id); }
  void Shutdown() override { io_->shut_down = true; }

 private:
  std::shared_ptr<FakeIo> io_;
};

inline const char* kOkBody =
    R"({"choices":[{"message":{"content":"{\"a\":1}"},"finish_reason":"stop"}],
        "usage":{"prompt_tokens":10,"completion_tokens":5}})";

class PoolFixture : public ::testing::Test {
 protected:
  PoolFixture() {
    cfg_.set("scheduler.policy", caf::atom("testing"));
    cfg_.add_message_types<caf::id_block::structure>();
    sys_ = std::make_unique<caf::actor_system>(cfg_);
    sched_ = &dynamic_cast<caf::scheduler::test_coordinator&>(sys_->scheduler());
    self_ = std::make_unique<caf::scoped_actor>(*sys_);
  }
  ~PoolFixture() override {
    if (pool_) (*self_)->send_exit(pool_, caf::exit_reason::kill);
    sched_->run();
    self_.reset();
  }

  static PoolConfig Config(int max_concurrency = 8) {
    PoolConfig c;
    c.endpoint.kind = providers::ProviderKind::kOpenAi;
    c.endpoint.base_url = "http://127.0.0.1:9";
    c.limits.max_concurrency = max_concurrency;
    c.limits.adaptive = false;
    c.backoff.initial = std::chrono::milliseconds(100);
    c.backoff.max = std::chrono::seconds(1);
    return c;
  }

  void Spawn(PoolConfig c) {
    auto io = io_;
    pool_ = SpawnProviderPool(*sys_, std::move(c), [io](providers::CompletionSink sink) {
      io->sink = std::move(sink);
      return std::make_unique<FakeTransport>(io);
    });
    sched_->run();
  }

  static PoolRequest Request(Lane lane = Lane::kBulk) {
    PoolRequest r;
    r.call.model = "m";
    r.call.turns.push_back(providers::UserTurn("hi"));
    r.lane = lane;
    return r;
  }

  void Send(PoolRequest r) {
    (*self_)->send(pool_, std::move(r));
    sched_->run();
  }

  void Complete(uint64_t id, int status, std::string body = kOkBody,
                providers::HttpHeaders headers = {}) {
    providers::Completion c;
    c.id = id;
    c.response.status = status;
    c.response.body = std::move(body);
    c.response.headers = std::move(headers);
    std::vector<providers::Completion> v;
    v.push_back(std::move(c));
    io_->sink(std::move(v));
    sched_->run();
  }

  // `nothing_sent`: the request never left the transport (no connection, failed handshake).
  void Fail(uint64_t id, providers::TransportError e, bool nothing_sent = false) {
    providers::Completion c;
    c.id = id;
    c.response.error = e;
    c.response.nothing_sent = nothing_sent;
    c.response.error_text = "simulated";
    std::vector<providers::Completion> v;
    v.push_back(std::move(c));
    io_->sink(std::move(v));
    sched_->run();
  }

  void Advance(std::chrono::milliseconds d) {
    sched_->advance_time(d);
    sched_->run();
  }

  // Every PoolReply that reached the test actor so far.
  std::vector<PoolReply> Replies() {
    std::vector<PoolReply> out;
    bool more = true;
    while (more) {
      (*self_)->receive([&](PoolReply& r) { out.push_back(std::move(r)); },
                        caf::after(std::chrono::seconds(0)) >> [&] { more = false; });
    }
    return out;
  }

  PoolStats Stats() {
    (*self_)->send(pool_, stats_atom_v);
    sched_->run();
    PoolStats s;
    (*self_)->receive([&](PoolStats& x) { s = x; },
                      caf::after(std::chrono::seconds(0)) >> [] { ADD_FAILURE() << "no stats"; });
    return s;
  }

  uint64_t StartedId(size_t i) const { return io_->started.at(i).first; }

  caf::actor_system_config cfg_;
  std::unique_ptr<caf::actor_system> sys_;
  caf::scheduler::test_coordinator* sched_ = nullptr;
  std::unique_ptr<caf::scoped_actor> self_;
  std::shared_ptr<FakeIo> io_ = std::make_shared<FakeIo>();
  ProviderPoolActor pool_;
};

}  // namespace structure::actors::testing
