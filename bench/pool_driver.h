// What bench_pool and bench_tls share: flags, CPU readings, the provider pool's standard call,
// an actor system with `structure sim` beside it, and a driver that sends every call at once
// and collects the replies.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "actors/provider_pool.h"
#include "tests/support/child_process.h"

namespace structure::bench {

// --name value pairs after the mode (argv[1]); a flag without a value is "1".
std::map<std::string, std::string> Flags(int argc, char** argv);
double Num(const std::map<std::string, std::string>& f, const char* k, double def);

// TCP connections this process holds open (after a run: its kept-alive connections).
int OpenSockets();
// This process's user + system CPU seconds.
double CpuSeconds();
// Per-thread CPU seconds of this process, by thread name.
std::map<std::string, double> ThreadCpu();
// The open-file limit as high as allowed (10 000 calls in flight need ~10 500 descriptors):
// the hard limit, raised first to `want` when this process may (root). Returns the soft limit.
long RaiseFileLimit(long want = 65536);

// The pool's standard call: a short extraction with a two-field strict schema.
actors::PoolRequest Call(int i, actors::Lane lane = actors::Lane::kBulk);

struct Env {
  caf::actor_system_config cfg;
  std::unique_ptr<caf::actor_system> sys;
  std::unique_ptr<testing::ChildProcess> sim;
};

// Starts `structure sim` with `sim_args` and an actor system as the engine sets it up (the
// `sharing` policy, one worker per core less one; BENCH_POOL_WORKERS=N overrides).
bool StartEnv(Env& env, const std::vector<std::string>& sim_args);
// The actor system alone (no simulator).
void StartActors(Env& env);

// A pool config for `provider` at the simulator (or `base_url` when set).
actors::PoolConfig Config(const Env& env, const std::string& provider, int concurrency,
                          const std::string& base_url = "");

struct Run {
  int ok = 0, failed = 0;
  double wall_s = 0;
  double sum_wire_us = 0, sum_total_us = 0, sum_queued_us = 0;
  std::vector<int64_t> queued_us;
  std::vector<double> done_s;  // completion times since the start, in order
  actors::PoolStats stats;
};

// Sends `calls` calls at once from an event-based driver actor (the pool keeps its concurrency
// on the wire) and waits for every reply; replies are matched by tag, as the engine's loop
// driver does (actors/loop_driver.h).
Run Drive(Env& env, const actors::ProviderPoolActor& pool, int calls);

}  // namespace structure::bench
