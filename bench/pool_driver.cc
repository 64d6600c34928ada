#include "bench/pool_driver.h"

#include <dirent.h>
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <future>
#include <set>
#include <sstream>
#include <thread>

#include "base/json.h"
#include "providers/wire.h"
#include "tests/support/sim_process.h"

namespace structure::bench {

using Clock = std::chrono::steady_clock;
using actors::PoolReply;
using actors::PoolRequest;

std::map<std::string, std::string> Flags(int argc, char** argv) {
  std::map<std::string, std::string> f;
  for (int i = 2; i < argc; ++i) {
    std::string a = argv[i];
    if (a.rfind("--", 0) != 0) continue;
    if (i + 1 < argc && std::string(argv[i + 1]).rfind("--", 0) != 0) {
      f[a.substr(2)] = argv[++i];
    } else {
      f[a.substr(2)] = "1";
    }
  }
  return f;
}

double Num(const std::map<std::string, std::string>& f, const char* k, double def) {
  auto it = f.find(k);
  return it == f.end() ? def : std::atof(it->second.c_str());
}

int OpenSockets() {
  // TCP sockets only: libcurl 7.88 also holds a wake-up socket pair per multi handle.
  std::set<std::string> tcp;
  for (const char* table : {"/proc/self/net/tcp", "/proc/self/net/tcp6"}) {
    std::ifstream in(table);
    std::string line;
    std::getline(in, line);  // header
    while (std::getline(in, line)) {
      std::istringstream fields(line);
      std::string field;
      for (int i = 0; i < 10 && fields >> field; ++i) {
      }
      tcp.insert(field);  // the 10th column: the inode
    }
  }
  int n = 0;
  if (DIR* d = opendir("/proc/self/fd")) {
    char target[64];
    while (dirent* e = readdir(d)) {
      std::string path = std::string("/proc/self/fd/") + e->d_name;
      ssize_t len = readlink(path.c_str(), target, sizeof(target) - 1);
      std::string link(target, static_cast<size_t>(std::max<ssize_t>(len, 0)));
      if (link.rfind("socket:[", 0) == 0 && tcp.count(link.substr(8, link.size() - 9))) ++n;
    }
    closedir(d);
  }
  return n;
}

double CpuSeconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
         static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

long RaiseFileLimit(long want) {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) != 0) return 0;
  if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < static_cast<rlim_t>(want)) {
    rlimit raised{static_cast<rlim_t>(want), static_cast<rlim_t>(want)};
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) return want;  // allowed: root
  }
  rl.rlim_cur = rl.rlim_max;
  setrlimit(RLIMIT_NOFILE, &rl);
  getrlimit(RLIMIT_NOFILE, &rl);
  return static_cast<long>(rl.rlim_cur);
}

PoolRequest Call(int i, actors::Lane lane) {
  // Shared by every call, as the engine shares a plan's schema (its text is written once).
  static const SharedJson schema = *ParseJson(
      R"({"type":"object","properties":{"name":{"type":"string"},"age":{"type":"integer"}},
          "required":["name","age"],"additionalProperties":false})");
  PoolRequest r;
  r.call.model = "sim-model";
  r.call.system = "Extract the person.";
  r.call.turns.push_back(providers::UserTurn("Ada Lovelace, 36. #" + std::to_string(i)));
  r.call.schema = schema;
  r.call.schema_name = "person";
  r.call.max_tokens = 100;
  r.lane = lane;
  return r;
}

bool StartEnv(Env& env, const std::vector<std::string>& sim_args) {
  std::string error;
  env.sim = testing::StartSim(STRUCTURE_BINARY_PATH, sim_args, &error);
  if (!env.sim) {
    std::fprintf(stderr, "cannot start sim: %s\n", error.c_str());
    return false;
  }
  StartActors(env);
  return true;
}

void StartActors(Env& env) {
  env.cfg.set("scheduler.policy", caf::atom("sharing"));
  // As the engine does: one scheduler thread per core, less the one the curl thread keeps busy.
  unsigned cores = std::thread::hardware_concurrency();
  size_t workers = cores > 2 ? cores - 1 : 1;
  if (const char* w = std::getenv("BENCH_POOL_WORKERS")) workers = std::strtoul(w, nullptr, 10);
  env.cfg.set("scheduler.max-threads", workers);
  env.cfg.add_message_types<caf::id_block::structure>();
  env.sys = std::make_unique<caf::actor_system>(env.cfg);
}

actors::PoolConfig Config(const Env& env, const std::string& provider, int concurrency,
                          const std::string& base_url) {
  actors::PoolConfig c;
  c.endpoint.kind = *providers::ParseProviderKind(provider);
  c.endpoint.base_url = base_url.empty() ? env.sim->base_url() : base_url;
  c.endpoint.api_key = "sk-bench";
  c.endpoint.timeout_ms = 60'000;
  c.limits.max_concurrency = concurrency;
  return c;
}

std::map<std::string, double> ThreadCpu() {
  std::map<std::string, double> out;
  long hz = sysconf(_SC_CLK_TCK);
  char path[64];
  std::snprintf(path, sizeof(path), "/proc/%d/task", getpid());
  if (DIR* d = opendir(path)) {
    while (dirent* e = readdir(d)) {
      if (e->d_name[0] == '.') continue;
      std::string base = std::string(path) + "/" + e->d_name;
      std::string comm, stat;
      if (FILE* f = std::fopen((base + "/comm").c_str(), "r")) {
        char buf[64] = {0};
        if (std::fgets(buf, sizeof(buf), f)) comm = buf;
        std::fclose(f);
      }
      if (!comm.empty() && comm.back() == '\n') comm.pop_back();
      if (FILE* f = std::fopen((base + "/stat").c_str(), "r")) {
        char buf[1024] = {0};
        size_t n = std::fread(buf, 1, sizeof(buf) - 1, f);
        std::fclose(f);
        stat.assign(buf, n);
      }
      size_t rp = stat.rfind(')');
      if (rp == std::string::npos) continue;
      // Fields after the comm: state is field 3; utime/stime are fields 14 and 15.
      std::vector<std::string> fields;
      size_t pos = rp + 2;
      while (pos < stat.size()) {
        size_t sp = stat.find(' ', pos);
        if (sp == std::string::npos) sp = stat.size();
        fields.push_back(stat.substr(pos, sp - pos));
        pos = sp + 1;
      }
      if (fields.size() < 13) continue;
      double cpu = (std::atof(fields[11].c_str()) + std::atof(fields[12].c_str())) / hz;
      out[comm] += cpu;
    }
    closedir(d);
  }
  return out;
}

Run Drive(Env& env, const actors::ProviderPoolActor& pool, int calls) {
  auto run = std::make_shared<Run>();
  auto t0 = Clock::now();
  std::promise<void> done;
  auto finished = done.get_future();
  env.sys->spawn([pool, calls, run, t0, &done](caf::event_based_actor* self) -> caf::behavior {
    auto left = std::make_shared<int>(calls);
    for (int i = 0; i < calls; ++i) {
      PoolRequest r = Call(i);
      r.tag = static_cast<uint64_t>(i) + 1;
      self->send(pool, std::move(r));
    }
    return {
        [=, &done](PoolReply& r) {
          run->done_s.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
          (r.status.ok() ? run->ok : run->failed)++;
          run->sum_wire_us += r.wire_us;
          run->sum_total_us += r.total_us;
          run->sum_queued_us += r.queued_us;
          if (!r.status.ok() && run->failed <= 3) {
            std::fprintf(stderr, "call failed: %s\n", r.status.ToString().c_str());
          }
          if (--*left == 0) {
            done.set_value();
            self->quit();
          }
        },
    };
  });
  finished.wait();
  run->wall_s = std::chrono::duration<double>(Clock::now() - t0).count();
  caf::scoped_actor self{*env.sys};
  self->request(pool, caf::infinite, actors::stats_atom_v)
      .receive([&](actors::PoolStats& s) { run->stats = s; }, [](caf::error&) {});
  return *run;
}

}  // namespace structure::bench
