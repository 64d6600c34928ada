// Throughput / CPU / rate-limit / lane measurements of the provider pool against
// `structure sim` on loopback (the sim runs as a child process; its CPU is reported apart).
//
//   bench_pool throughput --inflight 256 --latency-ms 200 --calls 5000 [--provider openai]
//   [--no-floor]
//     (also runs bare libcurl, bench/curl_floor.h, on the same sim and prints the ratio)
//   bench_pool floor --inflight 256 --latency-ms 200 --calls 5000 [--url U [--h2c]]
//     (bare libcurl only, against the sim or the server at U)
//   bench_pool rate --rpm 600 --seconds 60 [--untold]
//   bench_pool lanes --bulk 5000 --inflight 64 --latency-ms 200 --interactive 50
// CAF runs one scheduler thread per core less one (as the engine does); BENCH_POOL_WORKERS=N
// overrides that for A/B runs.
#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <map>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "actors/provider_pool.h"
#include "base/json.h"
#include "bench/curl_floor.h"
#include "bench/pool_driver.h"
#include "bench/steady_window.h"
#include "providers/transport/curl_transport.h"
#include "providers/wire.h"
#include "tests/support/sim_process.h"

namespace structure::bench {
namespace {

using Clock = std::chrono::steady_clock;
using actors::PoolReply;
using actors::PoolRequest;

std::vector<std::string> SimArgs(const std::map<std::string, std::string>& f, int latency) {
  return {"--latency-ms", std::to_string(latency), "--threads",
          f.count("sim-threads") ? f.at("sim-threads") : "1"};
}

struct FloorResult {
  FloorRun run;
  double sim_cpu_s = 0;  // the fresh simulator's CPU, warm-up included
};

// Bare libcurl (bench/curl_floor.h) sending the pool's request body for `provider` to a fresh
// simulator started with `sim_args`, or to `url` when it is not empty. No actor system runs.
std::optional<FloorResult> RunFloor(const std::vector<std::string>& sim_args,
                                    const std::string& provider, int inflight, int calls,
                                    const std::string& url = "",
                                    FloorProtocol protocol = FloorProtocol::kHttp1) {
  Env env;
  std::string error;
  env.sim = testing::StartSim(STRUCTURE_BINARY_PATH, sim_args, &error);
  if (!env.sim) {
    std::fprintf(stderr, "cannot start sim: %s\n", error.c_str());
    return std::nullopt;
  }
  auto req = providers::BuildRequest(Call(0).call, Config(env, provider, inflight).endpoint);
  if (!req.ok()) return std::nullopt;
  if (!url.empty()) req->url = url;
  FloorResult r;
  r.run = BareCurlFloor(*req, inflight, calls, protocol);
  env.sim->Stop();
  r.sim_cpu_s = env.sim->cpu_seconds();
  return r;
}

int Throughput(const std::map<std::string, std::string>& f) {
  int inflight = static_cast<int>(Num(f, "inflight", 256));
  int latency = static_cast<int>(Num(f, "latency-ms", 200));
  int calls = static_cast<int>(Num(f, "calls", inflight * 20));
  std::string provider = f.count("provider") ? f.at("provider") : "openai";
  std::vector<std::string> sim_args = SimArgs(f, latency);
  Env env;
  if (!StartEnv(env, sim_args)) return 1;
  auto pool = actors::SpawnProviderPool(*env.sys, Config(env, provider, inflight),
                                        providers::CurlTransportFactory());
  // Warm-up opens the connections, as a long-running engine would have them.
  Drive(env, pool, inflight);
  double cpu0 = CpuSeconds();
  auto threads0 = ThreadCpu();
  Run run = Drive(env, pool, calls);
  double cpu = CpuSeconds() - cpu0;
  std::printf("  mean per call: wire %.1f ms, queued %.1f ms, total %.1f ms\n",
              run.sum_wire_us / calls / 1000, run.sum_queued_us / calls / 1000,
              run.sum_total_us / calls / 1000);
  for (const auto& [name, secs] : ThreadCpu()) {
    double d = secs - (threads0.count(name) ? threads0[name] : 0.0);
    if (d > 0) std::printf("  thread %-16s %.1f us/call\n", name.c_str(), 1e6 * d / calls);
  }
  caf::anon_send_exit(pool, caf::exit_reason::user_shutdown);
  env.sys.reset();
  env.sim->Stop();
  // The floor: the same request body, sent by bare libcurl on one thread to a fresh simulator
  // with the same arguments (so the sim CPU above covers the pool's calls only).
  FloorRun floor;
  if (!f.count("no-floor")) {
    if (auto r = RunFloor(sim_args, provider, inflight, calls)) floor = r->run;
  }
  double ideal_per_s = inflight / (latency / 1000.0);
  double steady =
      SteadyRateOf(run.done_s, static_cast<long>(std::max<int64_t>(1, run.stats.max_in_flight)));
  std::printf(
      "throughput provider=%s inflight=%d latency_ms=%d calls=%d ok=%d failed=%d wall_s=%.3f "
      "calls_per_s=%.0f ideal_per_s=%.0f pct_ideal=%.1f engine_cpu_us_per_call=%.1f "
      "sim_cpu_us_per_call=%.1f max_in_flight=%lld\n",
      provider.c_str(), inflight, latency, calls, run.ok, run.failed, run.wall_s, steady,
      ideal_per_s, 100.0 * steady / ideal_per_s, 1e6 * cpu / calls,
      // The sim's CPU covers the warm-up calls too.
      1e6 * env.sim->cpu_seconds() / (calls + inflight),
      static_cast<long long>(run.stats.max_in_flight));
  if (floor.ok > 0) {
    double floor_us = 1e6 * floor.cpu_s / floor.ok;
    std::printf(
        "floor bare_libcurl_cpu_us_per_call=%.1f (kernel %.1f) ok=%d failed=%d "
        "calls_per_s=%.0f pct_ideal=%.1f engine_over_floor=%.2f\n",
        floor_us, 1e6 * floor.sys_s / floor.ok, floor.ok, floor.failed, floor.steady_per_s,
        100.0 * floor.steady_per_s / ideal_per_s, 1e6 * cpu / calls / floor_us);
  }
  return run.failed == 0 ? 0 : 1;
}

// Bare libcurl alone against the sim (bench/curl_floor.h).
int Floor(const std::map<std::string, std::string>& f) {
  int inflight = static_cast<int>(Num(f, "inflight", 256));
  int latency = static_cast<int>(Num(f, "latency-ms", 200));
  int calls = static_cast<int>(Num(f, "calls", inflight * 20));
  // --url sends the same request to another server instead (e.g. an h2c one, with --h2c).
  auto result =
      RunFloor(SimArgs(f, latency), "openai", inflight, calls, f.count("url") ? f.at("url") : "",
               f.count("h2c") > 0 ? FloorProtocol::kH2c : FloorProtocol::kHttp1);
  if (!result) return 1;
  const FloorRun& floor = result->run;
  double ideal_per_s = inflight / (latency / 1000.0);
  std::printf(
      "floor inflight=%d latency_ms=%d ok=%d failed=%d calls_per_s=%.0f pct_ideal=%.1f "
      "cpu_us_per_call=%.1f kernel_us_per_call=%.1f sim_cpu_us_per_call=%.1f\n",
      inflight, latency, floor.ok, floor.failed, floor.steady_per_s,
      latency > 0 ? 100.0 * floor.steady_per_s / ideal_per_s : 0.0, 1e6 * floor.cpu_s / calls,
      1e6 * floor.sys_s / calls, 1e6 * result->sim_cpu_s / (calls + inflight));
  return floor.failed == 0 ? 0 : 1;
}

int Rate(const std::map<std::string, std::string>& f) {
  int rpm = static_cast<int>(Num(f, "rpm", 600));
  double seconds = Num(f, "seconds", 60);
  bool untold = f.count("untold") > 0;
  int calls = static_cast<int>(Num(f, "calls", rpm * seconds / 60.0 + (untold ? rpm : rpm / 10)));
  Env env;
  if (!StartEnv(env, {"--latency-ms", "50", "--rpm", std::to_string(rpm)})) return 1;
  actors::PoolConfig c = Config(env, "openai", 64);
  if (!untold) c.limits.requests_per_minute = rpm;
  c.max_rate_limit_retries = 1000;
  auto pool = actors::SpawnProviderPool(*env.sys, c, providers::CurlTransportFactory());
  caf::scoped_actor self{*env.sys};
  auto t0 = Clock::now();
  for (int i = 0; i < calls; ++i) self->send(pool, Call(i));
  int ok = 0, failed = 0, in_window = 0;
  for (int i = 0; i < calls; ++i) {
    self->receive([&](PoolReply& r) {
      (r.status.ok() ? ok : failed)++;
      if (r.status.ok() && Clock::now() - t0 <= std::chrono::duration<double>(seconds)) ++in_window;
    });
  }
  double wall = std::chrono::duration<double>(Clock::now() - t0).count();
  actors::PoolStats st;
  self->request(pool, caf::infinite, actors::stats_atom_v)
      .receive([&](actors::PoolStats& s) { st = s; }, [](caf::error&) {});
  caf::anon_send_exit(pool, caf::exit_reason::user_shutdown);
  double limit_in_window = rpm * seconds / 60.0;
  std::printf(
      "rate rpm=%d told=%s calls=%d ok=%d failed=%d wall_s=%.1f ok_in_%.0fs=%d "
      "pct_of_limit=%.1f http429=%lld retries=%lld\n",
      rpm, untold ? "no" : "yes", calls, ok, failed, wall, seconds, in_window,
      100.0 * in_window / limit_in_window, static_cast<long long>(st.rate_limited),
      static_cast<long long>(st.retries));
  return failed == 0 ? 0 : 1;
}

int Lanes(const std::map<std::string, std::string>& f) {
  int bulk = static_cast<int>(Num(f, "bulk", 5000));
  int inflight = static_cast<int>(Num(f, "inflight", 64));
  int latency = static_cast<int>(Num(f, "latency-ms", 200));
  int interactive = static_cast<int>(Num(f, "interactive", 50));
  Env env;
  if (!StartEnv(env, {"--latency-ms", std::to_string(latency)})) return 1;
  auto pool = actors::SpawnProviderPool(*env.sys, Config(env, "openai", inflight),
                                        providers::CurlTransportFactory());
  caf::scoped_actor bulk_sender{*env.sys};
  caf::scoped_actor inter{*env.sys};
  for (int i = 0; i < bulk; ++i) bulk_sender->send(pool, Call(i));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the backlog is on the wire
  std::vector<int64_t> waits;
  int64_t backlog_at_first = -1;
  for (int i = 0; i < interactive; ++i) {
    inter->request(pool, caf::infinite, actors::stats_atom_v)
        .receive(
            [&](actors::PoolStats& s) {
              if (backlog_at_first < 0) backlog_at_first = s.queued;
            },
            [](caf::error&) {});
    inter->request(pool, caf::infinite, Call(1'000'000 + i, actors::Lane::kInteractive))
        .receive(
            [&](PoolReply& r) {
              if (r.status.ok()) waits.push_back(r.queued_us);
            },
            [](caf::error&) {});
    std::this_thread::sleep_for(std::chrono::milliseconds(13 * (i % 7)));
  }
  int bulk_ok = 0;
  for (int i = 0; i < bulk; ++i) {
    bulk_sender->receive([&](PoolReply& r) { bulk_ok += r.status.ok(); });
  }
  caf::anon_send_exit(pool, caf::exit_reason::user_shutdown);
  std::sort(waits.begin(), waits.end());
  auto pct = [&](double p) {
    return waits.empty() ? -1
                         : waits[std::min(waits.size() - 1, static_cast<size_t>(p * waits.size()))];
  };
  double slot_us = 1000.0 * latency / inflight;  // mean time between two slots freeing
  std::printf(
      "lanes bulk=%d inflight=%d latency_ms=%d backlog_when_first_sent=%lld "
      "interactive=%zu wait_us_p50=%lld p99=%lld max=%lld mean_slot_interval_us=%.0f "
      "bulk_ok=%d\n",
      bulk, inflight, latency, static_cast<long long>(backlog_at_first), waits.size(),
      static_cast<long long>(pct(0.5)), static_cast<long long>(pct(0.99)),
      static_cast<long long>(waits.empty() ? -1 : waits.back()), slot_us, bulk_ok);
  return 0;
}

}  // namespace
}  // namespace structure::bench

int main(int argc, char** argv) {
  structure::bench::RaiseFileLimit();
  structure::providers::InitCurlOnce();
  std::string mode = argc > 1 ? argv[1] : "";
  auto flags = structure::bench::Flags(argc, argv);
  if (mode == "throughput") return structure::bench::Throughput(flags);
  if (mode == "floor") return structure::bench::Floor(flags);
  if (mode == "rate") return structure::bench::Rate(flags);
  if (mode == "lanes") return structure::bench::Lanes(flags);
  std::fprintf(stderr,
               "usage: bench_pool throughput|floor|rate|lanes [--flags] (see the file header)\n");
  return 2;
}
