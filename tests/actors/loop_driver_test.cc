// The loop driver against a fake pool: each reply reaches the run it is for, whatever the order
// replies come back in, and a pool that dies fails the runs waiting on it.
#include "actors/loop_driver.h"

#include <gtest/gtest.h>

#include <future>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "config/settings.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/schema_stage.h"

namespace structure::actors {
namespace {

struct FakePoolState {
  std::vector<std::pair<PoolRequest, caf::typed_response_promise<PoolReply>>> held;
};

// Holds the requests until `answer_after` have come, then answers them newest first, each with
// {"name": <the request's prompt>}. With answer_after 0 it never answers.
ProviderPoolActor::behavior_type FakePool(ProviderPoolActor::stateful_pointer<FakePoolState> self,
                                          size_t answer_after) {
  return {
      [self, answer_after](PoolRequest& r) -> caf::typed_response_promise<PoolReply> {
        auto rp = self->make_response_promise<PoolReply>();
        self->state.held.emplace_back(std::move(r), rp);
        if (answer_after == 0 || self->state.held.size() < answer_after) return rp;
        for (auto it = self->state.held.rbegin(); it != self->state.held.rend(); ++it) {
          PoolReply out;
          Json answer = Json::MakeObject();
          answer.set("name", Json(it->first.call.turns.back().text));
          out.reply.content = ToJson(answer);
          out.tag = it->first.tag;
          it->second.deliver(std::move(out));
        }
        self->state.held.clear();
        return rp;
      },
      [](cancel_atom, uint64_t) {},
      [self](stats_atom) {
        PoolStats s;
        s.queued = static_cast<int64_t>(self->state.held.size());
        return s;
      },
  };
}

struct Results {
  std::mutex mu;
  std::vector<std::pair<std::string, pipeline::StructureResult>> got;  // (prompt, result)
  std::promise<void> all;
  size_t want = 0;
};

struct HostState {
  LoopWaits waits;
};

// Runs one loop per prompt on `pool` and reports each result with its prompt.
caf::behavior Host(caf::stateful_actor<HostState>* self, ProviderPoolActor pool,
                   std::vector<std::string> prompts, std::shared_ptr<Results> results) {
  static const auto plan = [] {
    auto schema = pipeline::ResolveSchema(
        *ParseJson(
            R"({"type":"object","properties":{"name":{"type":"string"}},"required":["name"]})"),
        "inline");
    auto made = pipeline::MakeLoopPlan(*schema, *pipeline::FindProfile("json"), {});
    return std::shared_ptr<const pipeline::LoopPlan>(std::move(*made));
  }();
  self->set_down_handler([self](caf::down_msg& d) { OnPoolDown(self, self->state.waits, d); });
  for (const std::string& prompt : prompts) {
    auto run = std::make_shared<LoopRun>();
    run->spec = pipeline::MakeLoopSpec(plan, prompt, config::Settings{}, "m");
    run->pool = pool;
    run->on_finish = [prompt, results](pipeline::StructureResult r) {
      std::lock_guard<std::mutex> lock(results->mu);
      results->got.emplace_back(prompt, std::move(r));
      if (results->got.size() == results->want) results->all.set_value();
    };
    StartLoop(self, self->state.waits, run);
  }
  return {
      [self](PoolReply& reply) { OnPoolReply(self, self->state.waits, reply); },
  };
}

class LoopDriverTest : public ::testing::Test {
 protected:
  LoopDriverTest() : sys_(cfg_.add_message_types<caf::id_block::structure>()) {}

  // Runs `prompts` against a fake pool answering after `answer_after` requests; `kill` sends
  // the pool an exit once every request is in.
  std::vector<std::pair<std::string, pipeline::StructureResult>> Run(
      std::vector<std::string> prompts, size_t answer_after, bool kill) {
    auto pool = sys_.spawn(FakePool, answer_after);
    auto results = std::make_shared<Results>();
    results->want = prompts.size();
    auto done = results->all.get_future();
    // Held until the end: an actor nobody references exits as unreachable.
    auto host = sys_.spawn(Host, pool, prompts, results);
    if (kill) {
      // Once the pool holds every request, kill it.
      caf::scoped_actor self{sys_};
      for (int64_t held = 0; held < static_cast<int64_t>(prompts.size());) {
        self->request(pool, caf::infinite, stats_atom_v)
            .receive([&](PoolStats& s) { held = s.queued; }, [](caf::error&) {});
      }
      caf::anon_send_exit(pool, caf::exit_reason::kill);
    }
    EXPECT_EQ(done.wait_for(std::chrono::seconds(10)), std::future_status::ready);
    std::lock_guard<std::mutex> lock(results->mu);
    return results->got;
  }

  caf::actor_system_config cfg_;
  caf::actor_system sys_;
};

TEST_F(LoopDriverTest, EachReplyReachesItsOwnRunWhateverTheOrder) {
  auto got = Run({"alpha", "beta", "gamma"}, 3, false);
  ASSERT_EQ(got.size(), 3u);
  for (auto& [prompt, r] : got) {
    ASSERT_EQ(r.status, pipeline::Outcome::kOk) << prompt;
    ASSERT_NE(r.data.find("name"), nullptr);
    EXPECT_NE(r.data.find("name")->as_string().find(prompt), std::string::npos)
        << "run '" << prompt << "' got " << ToJson(r.data);
  }
}

TEST_F(LoopDriverTest, APoolThatDiesFailsTheRunsWaitingOnIt) {
  auto got = Run({"alpha", "beta"}, 0, true);
  ASSERT_EQ(got.size(), 2u);
  for (auto& [prompt, r] : got) {
    EXPECT_EQ(r.status, pipeline::Outcome::kError) << prompt;
    ASSERT_FALSE(r.errors.empty());
    EXPECT_NE(r.errors[0].find("provider pool failed"), std::string::npos) << r.errors[0];
  }
}

}  // namespace
}  // namespace structure::actors
