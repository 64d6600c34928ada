#include "actors/provider_pool.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>
#include <unordered_map>

#include "actors/pool_shared.h"
#include "actors/pool_state.h"
#include "providers/http_status.h"
#include "providers/wire.h"

namespace structure::actors {
namespace pool {
namespace {

int64_t Micros(TimePoint a, TimePoint b) {
  return std::chrono::duration_cast<std::chrono::microseconds>(b - a).count();
}

int64_t Micros(providers::Duration d) {
  return std::chrono::duration_cast<std::chrono::microseconds>(d).count();
}

// "4.2 s" for a message.
std::string Secs(providers::Duration d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f s", std::chrono::duration<double>(d).count());
  return buf;
}

bool Bulk(const Pending& p) { return p.request.lane == Lane::kBulk; }

void Reply(Self self, uint64_t id, Status status, providers::ProviderReply reply = {}) {
  auto& st = self->state;
  auto it = st.pending.find(id);
  if (it == st.pending.end()) return;
  Pending& p = it->second;
  TimePoint now = self->clock().now();
  if (p.in_flight) {
    // Abandoned on the wire (deadline, cancel, shutdown): free its slot now.
    if (st.transport) st.transport->Cancel(id);
    st.limiter->Release(p.est_tokens, std::nullopt, now);
  } else if (p.asking) {
    st.limiter->Release(p.est_tokens, std::nullopt, now);  // the grant finds it gone
  }
  PoolReply out;
  out.status = std::move(status);
  out.reply = std::move(reply);
  out.attempts = p.attempts;
  out.http_status = p.last_http_status;
  out.wire_us = p.last_wire_us;
  out.queued_us = Micros(p.arrived, p.first_dispatch.value_or(now));
  out.total_us = Micros(p.arrived, now);
  out.wire_total_us = p.wire_total_us;
  out.rate_wait_us = Micros(p.rate_wait);
  out.backoff_us = Micros(p.backoff);
  out.tag = p.tag;
  ++st.stats.completed;
  if (out.status.ok()) ++st.stats.succeeded;
  p.promise.deliver(std::move(out));
  st.queue.Forget(id);
  st.pending.erase(it);
}

}  // namespace

void ArmWake(Self self, TimePoint at) {
  auto& st = self->state;
  if (st.wake_at && *st.wake_at <= at) return;
  st.wake_at = at;
  auto delay = std::max(at - self->clock().now(), providers::Duration::zero());
  self->delayed_send(caf::actor_cast<PoolImplActor>(self), delay, wake_atom_v);
}

void Send(Self self, uint64_t id, TimePoint now, bool shared) {
  auto& st = self->state;
  Pending& p = st.pending.at(id);
  // The first attempt hands the built request over; a retry builds it again (rare, and cheaper
  // than copying every body once more).
  providers::HttpRequest http;
  if (p.http) {
    http = std::move(*p.http);
    p.http.reset();
  } else {
    auto rebuilt = providers::BuildRequest(p.request.call, st.config.endpoint);
    if (!rebuilt.ok()) {
      st.limiter->Release(p.est_tokens, std::nullopt, now);
      Reply(self, id, rebuilt.status());
      return;
    }
    http = std::move(rebuilt).value();
  }
  // The wait for this turn: a bulk call's deadline moves by it (it waited for its turn).
  providers::Duration waited = std::max(now - p.eligible_since, providers::Duration::zero());
  p.rate_wait += waited;
  if (Bulk(p) && p.deadline != DispatchQueue::kNoDeadline) p.deadline += waited;
  p.in_flight = true;
  p.shared_acquired = shared;
  ++p.attempts;
  if (p.attempts > 1) ++st.stats.retries;
  if (!p.first_dispatch) p.first_dispatch = now;
  if (p.deadline != DispatchQueue::kNoDeadline) {
    int64_t left_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(p.deadline - now).count() + 1;
    if (http.timeout_ms <= 0 || left_ms < http.timeout_ms) http.timeout_ms = left_ms;
  }
  st.stats.max_in_flight = std::max<int64_t>(st.stats.max_in_flight, st.limiter->in_flight());
  st.transport->Start(id, std::move(http));
}

namespace {

void Dispatch(Self self, uint64_t id, TimePoint now) {
  auto& st = self->state;
  st.queue.Take(id);
  st.limiter->Acquire(st.pending.at(id).est_tokens, now);
  Send(self, id, now, /*shared=*/false);
}

// Admits queued requests while limits allow, then arms one wake for the next event.
void Pump(Self self) {
  auto& st = self->state;
  TimePoint now = self->clock().now();
  if (st.wake_at && *st.wake_at <= now) st.wake_at.reset();
  for (uint64_t id : st.queue.Expired(now)) {
    const Pending& p = st.pending.at(id);
    Reply(self, id,
          Status(Code::kDeadlineExceeded,
                 p.in_flight ? "the provider had not answered when the call's time ran out"
                             : "the call's time ran out while it waited for its turn under the "
                               "provider's rate limits"));
  }
  std::optional<TimePoint> next = st.queue.NextEvent();
  ReturnToStoreIfBack(self, now);
  if (HasStore(st) && st.shared.active()) {
    PumpShared(self, now, next);
    if (next) ArmWake(self, *next);
    return;
  }
  while (auto id = st.queue.Peek(now)) {
    const Pending& p = st.pending.at(*id);
    auto d = st.limiter->Check(p.est_tokens, now, p.request.lane == Lane::kBulk);
    if (!d.go) {
      if (d.ready_at && (!next || *d.ready_at < *next)) next = d.ready_at;
      break;
    }
    Dispatch(self, *id, now);
  }
  if (next) ArmWake(self, *next);
}

// Queues the next attempt: at once behind the endpoint's pause (`rate_limited`, a 429), or
// after a backoff until `at`. Ends the call with kDeadlineExceeded when its deadline comes
// first; a bulk call's rate-limit waits are its turn, not its own time.
void Retry(Self self, uint64_t id, Pending& p, TimePoint now, TimePoint at, bool rate_limited,
           const Status& last) {
  auto& st = self->state;
  if (at >= p.deadline && !(rate_limited && Bulk(p))) {
    std::string left = Secs(std::max(p.deadline - now, providers::Duration::zero()));
    Reply(self, id,
          Status(Code::kDeadlineExceeded,
                 "the next attempt was due in " + Secs(at - now) + ", after the " + left +
                     " left of the call's time; the last one: " + last.message()));
    return;
  }
  if (rate_limited) {
    p.eligible_since = now;  // waits for the endpoint's pause: its turn
    st.queue.PushFront(id);
  } else {
    p.backoff += at - now;
    p.eligible_since = at;
    st.queue.Delay(id, at);
  }
}

void OnCompletion(Self self, providers::Completion& c) {
  auto& st = self->state;
  auto it = st.pending.find(c.id);
  if (it == st.pending.end() || !it->second.in_flight) return;  // cancelled or expired
  Pending& p = it->second;
  TimePoint now = self->clock().now();
  p.in_flight = false;
  p.last_http_status = c.response.status;
  p.last_wire_us = c.response.wire_us;
  p.wire_total_us += c.response.wire_us;
  auto parsed = providers::ParseReply(st.config.endpoint.kind, c.response);
  auto hint = providers::ParseRateHint(c.response, static_cast<int64_t>(std::time(nullptr)));
  if (parsed.ok()) {
    const auto& u = parsed->usage;
    std::optional<int64_t> actual;
    if (u.input_tokens + u.output_tokens > 0) actual = u.input_tokens + u.output_tokens;
    if (p.shared_acquired && actual) {
      st.shared.AddRefund(p.est_tokens - *actual);  // corrected in the store's cell
      actual.reset();
    }
    st.limiter->Release(p.est_tokens, actual, now);
    st.limiter->OnSuccess();
    if (hint.remaining_requests && *hint.remaining_requests == 0) {
      // The reset header says when the whole window is back; one more request is due after
      // a single refill step, about a minute / limit.
      providers::Duration step = std::chrono::seconds(1);
      if (hint.limit_requests && *hint.limit_requests > 0) {
        step = std::chrono::microseconds(60'000'000 / *hint.limit_requests);
      }
      if (hint.reset_requests) step = std::min<providers::Duration>(step, *hint.reset_requests);
      st.limiter->PauseUntil(now + step);
    }
    Reply(self, c.id, Status::Ok(), std::move(parsed).value());
    return;
  }
  st.limiter->Release(p.est_tokens, std::nullopt, now);
  Status status = parsed.status();
  if (c.response.error == providers::TransportError::kConnect &&
      !st.config.unreachable_hint.empty()) {
    status = Status(status.code(), status.message() + "; " + st.config.unreachable_hint);
  }
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  if (status.code() == Code::kResourceExhausted) {
    ++st.stats.rate_limited;
    ++p.rate_limited;
    auto delay = hint.retry_after
                     ? std::min<providers::Duration>(*hint.retry_after, st.config.max_retry_after)
                     : providers::BackoffDelay(st.config.backoff, p.rate_limited, unit(st.rng));
    // The limit belongs to the key, so the whole endpoint waits, not just this request, in
    // every process that shares the store.
    st.limiter->OnRateLimited(now + delay);
    PublishPause(self, delay);
    if (hint.retry_after && !Bulk(p) && now + *hint.retry_after > p.deadline) {
      // Waiting would only end at the deadline: say so now.
      Reply(self, c.id,
            Status(Code::kDeadlineExceeded,
                   "the provider answered 429 and asked to wait " + Secs(*hint.retry_after) +
                       " (Retry-After), longer than the " +
                       Secs(std::max(p.deadline - now, providers::Duration::zero())) +
                       " left of the call's time (callTimeoutMs), so the call ends now instead "
                       "of waiting"));
    } else if (p.rate_limited > st.config.max_rate_limit_retries) {
      Reply(self, c.id, std::move(status));
    } else {
      Retry(self, c.id, p, now, now + delay, /*rate_limited=*/true, status);
    }
  } else if (status.retryable() && c.response.nothing_sent && !p.resent_unsent) {
    // Nothing reached the server (no connection, a failed or stalled TLS handshake or proxy
    // tunnel), so sending again cannot duplicate the call: once, at once, on a new connection
    // (curl never reuses the one that failed), before the backoff below takes over.
    p.resent_unsent = true;
    p.eligible_since = now;
    st.queue.PushFront(c.id);
  } else if (status.retryable()) {
    ++p.transient_retries;
    auto delay =
        hint.retry_after
            ? std::min<providers::Duration>(*hint.retry_after, st.config.max_retry_after)
            : providers::BackoffDelay(st.config.backoff, p.transient_retries, unit(st.rng));
    if (p.transient_retries > st.config.max_retries) {
      Reply(self, c.id, std::move(status));
    } else {
      Retry(self, c.id, p, now, now + delay, /*rate_limited=*/false, status);
    }
  } else {
    Reply(self, c.id, std::move(status));
  }
}

void FailAll(Self self, const Status& status) {
  std::vector<uint64_t> ids;
  ids.reserve(self->state.pending.size());
  for (const auto& [id, p] : self->state.pending) ids.push_back(id);
  for (uint64_t id : ids) Reply(self, id, status);
}

PoolImplActor::behavior_type PoolBehavior(Self self, PoolConfig config,
                                          providers::TransportFactory factory) {
  auto& st = self->state;
  st.config = std::move(config);
  st.limiter.emplace(st.config.limits, self->clock().now());
  st.rng.seed(st.config.seed);
  InitShared(self);
  caf::actor_addr weak = self->address();
  if (factory) {
    st.transport = factory([weak](std::vector<providers::Completion>&& done) {
      if (auto hdl = caf::actor_cast<PoolImplActor>(weak)) {
        caf::anon_send(hdl, io_done_atom_v, Completions(std::move(done)));
      }
    });
  }
  self->set_exit_handler([self](caf::exit_msg& msg) {
    FailAll(self, Status(Code::kCancelled, "provider pool shutting down"));
    if (self->state.transport) self->state.transport->Shutdown();
    self->quit(msg.reason);
  });
  return {
      [self](PoolRequest& req) -> caf::typed_response_promise<PoolReply> {
        auto& st = self->state;
        uint64_t id = st.next_id++;
        Pending& p = st.pending[id];
        p.promise = self->make_response_promise<PoolReply>();
        p.arrived = self->clock().now();
        p.eligible_since = p.arrived;
        p.tag = req.tag;
        if (req.timeout.count() > 0) p.deadline = p.arrived + req.timeout;
        auto promise = p.promise;
        auto http = providers::BuildRequest(req.call, st.config.endpoint);
        if (!st.transport) {
          Reply(self, id, Internal("provider pool: the transport could not be created"));
        } else if (!http.ok()) {
          Reply(self, id, http.status());
        } else {
          p.http = std::move(http).value();
          p.est_tokens = providers::EstimateTokens(*p.http, req.call);
          Status feasible = st.limiter->CheckFeasible(p.est_tokens);
          if (!feasible.ok()) {
            Reply(self, id, std::move(feasible));
          } else {
            Lane lane = req.lane;
            p.request = std::move(req);
            // A bulk call waiting for its turn does not expire (its deadline moves at dispatch).
            st.queue.Push(id, lane, lane == Lane::kBulk ? DispatchQueue::kNoDeadline : p.deadline);
            Pump(self);
          }
        }
        return promise;
      },
      [self](cancel_atom, uint64_t key) {
        if (key == 0) return;
        std::vector<uint64_t> ids;
        for (const auto& [id, p] : self->state.pending) {
          if (p.request.cancel_key == key) ids.push_back(id);
        }
        for (uint64_t id : ids) Reply(self, id, Status(Code::kCancelled, "cancelled by caller"));
        Pump(self);
      },
      [self](stats_atom) -> PoolStats {
        auto& st = self->state;
        PoolStats s = st.stats;
        s.in_flight = st.limiter->in_flight();
        s.queued = static_cast<int64_t>(st.queue.waiting());
        s.concurrency_cap = st.limiter->concurrency_cap();
        s.shared = HasStore(st) && st.shared.active();
        return s;
      },
      [self](io_done_atom, Completions& done) {
        for (auto& c : done) OnCompletion(self, c);
        Pump(self);
      },
      [self](wake_atom) { Pump(self); },
      [self](shared_atom, SharedReply& r) {
        OnSharedReply(self, r);
        Pump(self);
      },
  };
}

}  // namespace
}  // namespace pool

ProviderPoolActor SpawnProviderPool(caf::actor_system& system, PoolConfig config,
                                    providers::TransportFactory transport_factory) {
  auto impl = system.spawn(pool::PoolBehavior, std::move(config), std::move(transport_factory));
  return caf::actor_cast<ProviderPoolActor>(impl);
}

}  // namespace structure::actors
