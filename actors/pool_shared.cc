#include "actors/pool_shared.h"

namespace structure::actors::pool {
namespace {

const registry::RedisScript kAcquire{std::string(providers::kAcquireScript)};
const registry::RedisScript kPause{std::string(providers::kPauseScript)};

void SendAcquire(Self self, const providers::AcquireAsk& ask) {
  auto& st = self->state;
  ++st.stats.shared_asks;
  size_t asked = ask.est_tokens.size();
  caf::actor_addr weak = self->address();
  st.config.shared.client->Eval(&kAcquire, providers::SharedKeyList(st.shared_keys),
                                providers::AcquireArgs(st.config.limits, ask),
                                [weak, asked](Result<registry::RedisReply> r) {
                                  SharedReply out;
                                  if (!r.ok()) {
                                    out.status = r.status();
                                  } else {
                                    std::vector<int64_t> ints;
                                    for (const auto& e : r->elements) ints.push_back(e.integer);
                                    auto grant = providers::ParseGrant(ints, asked);
                                    if (grant.ok()) {
                                      out.grant = *grant;
                                    } else {
                                      out.status = grant.status();
                                    }
                                  }
                                  if (auto hdl = caf::actor_cast<PoolImplActor>(weak)) {
                                    caf::anon_send(hdl, shared_atom_v, std::move(out));
                                  }
                                });
}

// Requests taken for an acquire go back to the front of their lanes, in their order.
void PutBack(Self self, const std::vector<std::pair<uint64_t, int64_t>>& back, TimePoint now) {
  auto& st = self->state;
  for (auto it = back.rbegin(); it != back.rend(); ++it) {
    auto p = st.pending.find(it->first);
    if (p == st.pending.end() || !p->second.asking) continue;  // answered meanwhile
    p->second.asking = false;
    st.limiter->Release(p->second.est_tokens, std::nullopt, now);
    st.queue.PushFront(it->first);
  }
}

// The store could not be used: this process enforces its fallback share of each rate until the
// store answers again (the client reports the outage once for the whole process).
void StoreDown(Self self, TimePoint now) {
  auto& st = self->state;
  ++st.stats.store_fallbacks;
  st.limiter->SetRateShare(st.config.shared.fallback_share, now);
  st.store_retry_at = now + std::chrono::seconds(1);
  PutBack(self, st.shared.OnStoreDown().back, now);
}

}  // namespace

bool HasStore(const PoolState& st) { return st.config.shared.client != nullptr; }

void InitShared(Self self) {
  auto& st = self->state;
  if (!HasStore(st)) return;
  st.shared_keys = providers::SharedKeysFor(st.config.endpoint);
  st.limiter->SetRateShare(0, self->clock().now());
}

void ReturnToStoreIfBack(Self self, TimePoint now) {
  auto& st = self->state;
  if (!HasStore(st) || st.shared.active() || now < st.store_retry_at ||
      !st.config.shared.client->up()) {
    return;
  }
  st.shared.OnStoreUp();
  st.limiter->SetRateShare(0, now);
}

void PublishPause(Self self, providers::Duration pause) {
  auto& st = self->state;
  if (!HasStore(st) || !st.shared.active()) return;
  st.config.shared.client->Eval(&kPause, providers::SharedKeyList(st.shared_keys),
                                providers::PauseArgs(pause), [](Result<registry::RedisReply>) {});
}

void PumpShared(Self self, TimePoint now, std::optional<TimePoint>& next) {
  auto& st = self->state;
  if (!st.shared.CanAsk(now)) {
    auto at = st.shared.retry_at();
    bool want = st.queue.waiting() > 0 || st.shared.pending_refund() != 0;
    if (!st.shared.asking() && at && want && (!next || *at < *next)) next = at;
    return;
  }
  std::vector<std::pair<uint64_t, int64_t>> asked;
  providers::AcquireAsk ask;
  while (asked.size() < providers::SharedAdmission::kMaxAsk) {
    auto id = st.queue.Peek(now);
    if (!id) break;
    Pending& p = st.pending.at(*id);
    auto d = st.limiter->Check(p.est_tokens, now, p.request.lane == Lane::kBulk);
    if (!d.go) {
      if (d.ready_at && (!next || *d.ready_at < *next)) next = d.ready_at;
      break;
    }
    st.queue.Take(*id);
    st.limiter->Acquire(p.est_tokens, now);
    p.asking = true;
    asked.emplace_back(*id, p.est_tokens);
    ask.est_tokens.push_back(p.est_tokens);
  }
  if (asked.empty() && st.shared.pending_refund() == 0) return;
  ask.token_refund = st.shared.StartAsk(std::move(asked));
  SendAcquire(self, ask);
}

void OnSharedReply(Self self, SharedReply& r) {
  auto& st = self->state;
  TimePoint now = self->clock().now();
  if (!st.shared.asking()) return;  // the store was given up on meanwhile
  if (!r.status.ok()) return StoreDown(self, now);
  auto answer = st.shared.OnGrant(r.grant, now);
  for (const auto& [id, est] : answer.go) {
    auto it = st.pending.find(id);
    if (it == st.pending.end() || !it->second.asking) {
      st.shared.AddRefund(est);  // answered while asking: its tokens go back
      continue;
    }
    it->second.asking = false;
    Send(self, id, now, /*shared=*/true);
  }
  PutBack(self, answer.back, now);
}

}  // namespace structure::actors::pool
