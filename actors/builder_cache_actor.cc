#include "actors/builder_cache_actor.h"

#include <map>
#include <vector>

#include "actors/loop_driver.h"
#include "base/time_format.h"
#include "registry/shared_builder_cache.h"

namespace structure::actors {

namespace {

BuildOutcome FromCache(const registry::CachedBuild& c) {
  BuildOutcome o;
  o.cache_hit = true;
  o.loop.status = c.need ? pipeline::Outcome::kNeedMoreInput : pipeline::Outcome::kOk;
  o.loop.need = c.question;
  o.loop.data = c.schema;
  return o;
}

struct BuilderCacheState {
  std::shared_ptr<registry::BuilderCacheStore> store;
  std::shared_ptr<registry::RedisClient> shared;
  int64_t ttl_ms = 0;
  std::map<std::string, BuildJob> looking;  // key -> its job, while the shared store is asked
  std::map<std::string, std::vector<caf::typed_response_promise<BuildOutcome>>> waiting;
  std::map<std::string, std::string> normalized;  // key -> text, for builds in flight
};

struct BuildRunnerState {
  LoopWaits waits;
};

// Runs one builder loop and reports back to the cache.
caf::behavior BuildRunner(caf::stateful_actor<BuildRunnerState>* self, caf::actor cache,
                          BuildJob job) {
  auto run = std::make_shared<LoopRun>();
  run->spec = std::move(job.spec);
  run->pool = job.pool;
  run->lane = job.lane;
  run->deadline = job.deadline;
  run->timeout_ms = job.timeout_ms;
  std::string key = job.key;
  run->on_finish = [self, cache, key](pipeline::StructureResult r) {
    BuildOutcome o;
    o.loop = std::move(r);
    self->send(cache, built_atom_v, key, std::move(o));
    self->quit();
  };
  self->set_down_handler(
      [self](caf::down_msg& down) { OnPoolDown(self, self->state.waits, down); });
  StartLoop(self, self->state.waits, run);
  return {
      [self](PoolReply& reply) { OnPoolReply(self, self->state.waits, reply); },
  };
}

using CacheSelf = caf::stateful_actor<BuilderCacheState>*;

void Deliver(CacheSelf self, const std::string& key, const BuildOutcome& outcome) {
  auto& st = self->state;
  st.normalized.erase(key);
  auto it = st.waiting.find(key);
  if (it == st.waiting.end()) return;
  auto waiters = std::move(it->second);
  st.waiting.erase(it);
  for (size_t i = 0; i < waiters.size(); ++i) {
    BuildOutcome o = outcome;
    o.cache_hit = o.cache_hit || i > 0;  // only the first caller of a build paid for the call
    if (o.cache_hit) o.loop.usage = {};
    waiters[i].deliver(std::move(o));
  }
}

// Asks the shared store for `key`; the answer comes back as found_atom.
void LookUpShared(CacheSelf self, const std::string& key) {
  caf::actor_addr weak = self->address();
  self->state.shared->Command(
      {"GET", registry::SharedBuilderKey(key)}, [weak, key](Result<registry::RedisReply> r) {
        bool hit = r.ok() && r->type == registry::RedisReply::Type::kString;
        if (auto hdl = caf::actor_cast<caf::actor>(weak)) {
          caf::anon_send(hdl, found_atom_v, key, hit ? r->str : std::string());
        }
      });
}

caf::behavior BuilderCache(CacheSelf self, std::shared_ptr<registry::BuilderCacheStore> store,
                           int64_t ttl_ms, std::shared_ptr<registry::RedisClient> shared) {
  self->state.store = std::move(store);
  self->state.shared = std::move(shared);
  self->state.ttl_ms = ttl_ms;
  return {
      [self](build_atom, BuildJob& job) -> caf::result<BuildOutcome> {
        auto& st = self->state;
        // A store error is a miss: the call costs tokens but still succeeds.
        auto hit = st.store->Get(job.key, job.normalized, UnixNowMs(), st.ttl_ms);
        if (hit.ok() && hit->has_value()) return FromCache(**hit);
        auto rp = self->make_response_promise<BuildOutcome>();
        auto& waiters = st.waiting[job.key];
        waiters.push_back(rp);
        if (waiters.size() == 1) {
          st.normalized[job.key] = job.normalized;
          if (st.shared && st.shared->up()) {
            std::string key = job.key;
            st.looking.emplace(key, std::move(job));
            LookUpShared(self, key);
          } else {
            self->spawn(BuildRunner, caf::actor_cast<caf::actor>(self), std::move(job));
          }
        }
        return rp;
      },
      [self](found_atom, const std::string& key, const std::string& value) {
        auto& st = self->state;
        auto it = st.looking.find(key);
        if (it == st.looking.end()) return;
        BuildJob job = std::move(it->second);
        st.looking.erase(it);
        auto hit = value.empty()
                       ? std::nullopt
                       : registry::DecodeSharedBuild(value, job.normalized, UnixNowMs(), st.ttl_ms);
        if (!hit) {  // a miss, or the store failed: build it
          self->spawn(BuildRunner, caf::actor_cast<caf::actor>(self), std::move(job));
          return;
        }
        (void)st.store->Put(key, job.normalized, *hit);  // the next lookup here stays local
        Deliver(self, key, FromCache(*hit));
      },
      [self](built_atom, const std::string& key, BuildOutcome& outcome) {
        auto& st = self->state;
        const auto& r = outcome.loop;
        if (r.status == pipeline::Outcome::kOk || r.status == pipeline::Outcome::kNeedMoreInput) {
          registry::CachedBuild c;
          c.need = r.status == pipeline::Outcome::kNeedMoreInput;
          c.schema = r.data;
          c.question = r.need;
          c.created_ms = UnixNowMs();
          const Json* conf = r.data.find("confidence");
          c.confidence = conf != nullptr && conf->is_number() ? conf->as_double() : 0;
          // A failed write only costs a future call; the answer itself is good.
          (void)st.store->Put(key, st.normalized[key], c);
          if (st.shared) {
            std::vector<std::string> set = {"SET", registry::SharedBuilderKey(key),
                                            registry::EncodeSharedBuild(st.normalized[key], c)};
            if (st.ttl_ms > 0) {
              set.push_back("PX");
              set.push_back(std::to_string(st.ttl_ms));
            }
            st.shared->Command(std::move(set), [](Result<registry::RedisReply>) {});
          }
        }
        Deliver(self, key, outcome);
      },
  };
}

}  // namespace

caf::actor SpawnBuilderCache(caf::actor_system& system,
                             std::shared_ptr<registry::BuilderCacheStore> store, int64_t ttl_ms,
                             std::shared_ptr<registry::RedisClient> shared) {
  return system.spawn(BuilderCache, std::move(store), ttl_ms, std::move(shared));
}

}  // namespace structure::actors
