// The provider pool as real providers are reached: through nginx (TLS 1.3, HTTP/2 or HTTP/1.1,
// a certificate made at start under a CA of its own; tests/support/tls_rig.h) in front of
// `structure sim`, against bare libcurl on the same path (bench/curl_floor.h) and the official
// OpenAI Node SDK (bench/sdk/openai_load.mjs) through the same nginx.
//
//   bench_tls [--inflight 64,256,10000] [--latency-ms 500] [--waves N] [--repeat N]
//             [--modes plain,tls1,tls2] [--sdk-max 256] [--no-sdk] [--ca-path DIR] [--canned]
//
// --repeat N: each cell N times, the clients taking turns; a row is the run with the median
// rate, followed by the % of ideal of every run (the machines here move by tenths of a point
// from one minute to the next).
//
// --waves: calls per cell = N x C (default 24 up to C = 1 024, 8 above). The % of ideal is
// the rate between the waves holding 10 % and 90 % of the completions (bench/steady_window.h):
// a cell starts with all C calls at once and takes a few waves to settle, so 8 waves left a
// steady window of 6 that still held the start (noisier: docs/providers.md).
//
// --canned: no simulator; nginx answers every call at once with a fixed reply (CPU per call
// at full speed: no latency, so no % of ideal).
//
// Every cell (one mode, one C, one client) runs in a child process of its own (`bench_tls cell
// ...`) with a fresh simulator and nginx, so its peak RSS is its own; certificates are checked
// against the system's CA bundle plus the test CA (a store of real size); memory per call in
// flight is (peak RSS at C - peak RSS at 16 in flight with as many calls, all queued at once)
// / (C - 16) of the same client and mode. Modes: plain
// HTTP/1.1, TLS + HTTP/1.1 (nginx's port without h2), TLS + HTTP/2, all through nginx.
// Connections and full TLS handshakes come from nginx's access log ($connection,
// $ssl_session_reused), per 1 000 calls (warm-up wave included). --ca-path sets the
// transport's CA directory (libcurl then parses the CA store again for every connection: the
// behaviour before the CA cache, for a before/after in one run).
//
// 10 000 in flight need ~20 000 descriptors in the bench and in nginx: the open-file limit is
// raised to 65 536 when allowed (root), else to the hard limit, with a warning when too low.
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "bench/curl_floor.h"
#include "bench/pool_driver.h"
#include "bench/steady_window.h"
#include "providers/transport/curl_transport.h"
#include "providers/wire.h"
#include "tests/support/sim_process.h"
#include "tests/support/tls_rig.h"

namespace structure::bench {
namespace {

using Fields = std::map<std::string, std::string>;

long PeakRssKb() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return ru.ru_maxrss;
}

std::string Url(const testing::NginxTls& rig, const std::string& mode) {
  if (mode == "plain") return rig.plain_url();
  return rig.url(mode == "tls2");
}

struct Stage {
  Env env;
  std::unique_ptr<testing::NginxTls> rig;
  // The system's CA bundle plus the test CA: a store of real size (Debian: ~140 CAs), as a
  // deployment that adds its company CA to the system store has.
  std::string bundle;
};

// The simulator (one thread, `latency` ms) and nginx in front of it; with a negative latency
// (--canned) no simulator: nginx answers at once with a fixed reply.
bool StartStage(Stage& s, int inflight, int latency, bool actors) {
  std::string error;
  if (latency < 0) {
    if (actors) StartActors(s.env);
  } else if (actors) {
    if (!StartEnv(s.env, {"--latency-ms", std::to_string(latency), "--threads", "1"})) return false;
  } else {
    s.env.sim = testing::StartSim(
        STRUCTURE_BINARY_PATH, {"--latency-ms", std::to_string(latency), "--threads", "1"}, &error);
    if (!s.env.sim) return std::fprintf(stderr, "cannot start sim: %s\n", error.c_str()), false;
  }
  testing::NginxOptions o;
  o.upstream_port = s.env.sim ? s.env.sim->port() : 0;
  o.worker_connections = 2 * inflight + 1024;
  o.upstream_keepalive = inflight + 64;
  s.rig = testing::NginxTls::Start(o, &error);
  if (!s.rig) return std::fprintf(stderr, "cannot start nginx: %s\n", error.c_str()), false;
  s.bundle = s.rig->dir() + "/bundle.pem";
  return testing::Shell("cat /etc/ssl/certs/ca-certificates.crt '" + s.rig->ca_file() + "' > '" +
                        s.bundle + "'");
}

void PrintLog(const testing::NginxTls& rig, double nginx_cpu_s, long calls) {
  testing::NginxLogStats log = rig.ReadLog();
  double per = log.requests > 0 ? 1000.0 / static_cast<double>(log.requests) : 0;
  std::string protocol = log.protocols.empty() ? "-" : log.protocols.rbegin()->first;
  std::printf(
      " requests=%ld conns_per_1000=%.2f full_handshakes_per_1000=%.2f "
      "resumed_per_1000=%.2f protocol=%s nginx_us_per_call=%.1f",
      log.requests, per * static_cast<double>(log.connections),
      per * static_cast<double>(log.full_handshakes), per * static_cast<double>(log.resumed),
      protocol.c_str(), 1e6 * nginx_cpu_s / static_cast<double>(calls));
}

int EngineCell(const std::string& mode, int inflight, int latency, int calls,
               const std::string& ca_path) {
  Stage s;
  if (!StartStage(s, inflight, latency, true)) return 1;
  providers::CurlOptions curl;
  curl.network.ca_file = s.bundle;
  curl.network.ca_path = ca_path;
  auto pool =
      actors::SpawnProviderPool(*s.env.sys, Config(s.env, "openai", inflight, Url(*s.rig, mode)),
                                providers::CurlTransportFactory(curl));
  Drive(s.env, pool, inflight);  // warm-up: opens the connections
  double cpu0 = CpuSeconds(), nginx0 = s.rig->WorkerCpuSeconds();
  Run run = Drive(s.env, pool, calls);
  double cpu = CpuSeconds() - cpu0, nginx = s.rig->WorkerCpuSeconds() - nginx0;
  long rss = PeakRssKb();
  int sockets = OpenSockets();
  caf::anon_send_exit(pool, caf::exit_reason::user_shutdown);
  double steady =
      SteadyRateOf(run.done_s, static_cast<long>(std::max<int64_t>(1, run.stats.max_in_flight)));
  std::printf(
      "cell ok=%d failed=%d cpu_us_per_call=%.1f calls_per_s=%.0f peak_rss_kb=%ld open_conns=%d",
      run.ok, run.failed, 1e6 * cpu / calls, steady, rss, sockets);
  PrintLog(*s.rig, nginx, calls);
  std::printf("\n");
  return run.failed == 0 ? 0 : 1;
}

int FloorCell(const std::string& mode, int inflight, int latency, int calls,
              const std::string& ca_path) {
  Stage s;
  if (!StartStage(s, inflight, latency, false)) return 1;
  actors::PoolConfig c = Config(s.env, "openai", inflight, Url(*s.rig, mode));
  auto req = providers::BuildRequest(Call(0).call, c.endpoint);
  if (!req.ok()) return 1;
  double nginx0 = s.rig->WorkerCpuSeconds();
  FloorRun run =
      BareCurlFloor(*req, inflight, calls,
                    mode == "tls2" ? FloorProtocol::kH2 : FloorProtocol::kHttp1, s.bundle, ca_path);
  double nginx = s.rig->WorkerCpuSeconds() - nginx0;
  std::printf(
      "cell ok=%d failed=%d cpu_us_per_call=%.1f calls_per_s=%.0f peak_rss_kb=%ld open_conns=%d",
      run.ok, run.failed, 1e6 * run.cpu_s / calls, run.steady_per_s, PeakRssKb(), run.sockets);
  PrintLog(*s.rig, nginx, calls);
  std::printf("\n");
  return run.failed == 0 ? 0 : 1;
}

// The official SDK in Node, installed from bench/sdk/package-lock.json on first use.
int SdkCell(const std::string& mode, int inflight, int latency, int calls) {
  std::string dir = std::string(STRUCTURE_SOURCE_DIR) + "/bench/sdk";
  if (access((dir + "/node_modules/openai/package.json").c_str(), R_OK) != 0 &&
      !testing::Shell("cd '" + dir + "' && npm ci --no-audit --no-fund --loglevel=error >&2")) {
    return std::fprintf(stderr, "npm ci failed in %s\n", dir.c_str()), 1;
  }
  Stage s;
  if (!StartStage(s, inflight, latency, false)) return 1;
  std::string out = s.rig->dir() + "/sdk.out";
  std::string cmd = "NODE_EXTRA_CA_CERTS='" + s.rig->ca_file() + "' node '" + dir +
                    "/openai_load.mjs' '" + Url(*s.rig, mode) + "' " + std::to_string(inflight) +
                    " " + std::to_string(calls) + " > '" + out + "'";
  double nginx0 = s.rig->WorkerCpuSeconds();
  if (!testing::Shell(cmd)) return std::fprintf(stderr, "the SDK run failed\n"), 1;
  double nginx = s.rig->WorkerCpuSeconds() - nginx0;
  std::ifstream f(out);
  std::string json((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  auto field = [&](const std::string& name) {
    size_t p = json.find("\"" + name + "\":");
    return p == std::string::npos ? 0.0 : std::atof(json.c_str() + p + name.size() + 3);
  };
  std::printf("cell ok=%.0f failed=%.0f cpu_us_per_call=%.1f calls_per_s=%.0f peak_rss_kb=%.0f",
              field("ok"), field("failed"), field("cpu_us_per_call"), field("calls_per_s"),
              field("max_rss_kb"));
  PrintLog(*s.rig, nginx, calls);
  std::printf("\n");
  return field("failed") == 0 ? 0 : 1;
}

// Runs one cell in a child process and returns its key=value fields (empty on failure).
Fields RunCell(const std::string& self, const std::string& what, const std::string& mode,
               int inflight, int latency, int calls, const std::string& ca_path) {
  std::string out = "/tmp/bench_tls_cell_" + std::to_string(getpid()) + ".out";
  std::string cmd = "'" + self + "' cell --what " + what + " --mode " + mode + " --inflight " +
                    std::to_string(inflight) + " --latency-ms " + std::to_string(latency) +
                    " --calls " + std::to_string(calls) +
                    (ca_path.empty() ? "" : " --ca-path '" + ca_path + "'") + " > '" + out + "'";
  int rc = std::system(cmd.c_str());
  std::ifstream f(out);
  std::string line, word;
  Fields fields;
  while (std::getline(f, line)) {
    if (line.rfind("cell ", 0) != 0) continue;
    std::istringstream in(line.substr(5));
    while (in >> word) {
      size_t eq = word.find('=');
      if (eq != std::string::npos) fields[word.substr(0, eq)] = word.substr(eq + 1);
    }
  }
  std::remove(out.c_str());
  if (rc != 0) fields["error"] = "exit " + std::to_string(rc);
  return fields;
}

std::vector<std::string> Split(const std::string& s) {
  std::vector<std::string> out;
  std::stringstream in(s);
  for (std::string item; std::getline(in, item, ',');) out.push_back(item);
  return out;
}

double D(const Fields& f, const char* k) {
  auto it = f.find(k);
  return it == f.end() ? 0 : std::atof(it->second.c_str());
}

int Matrix(const std::string& self, const std::map<std::string, std::string>& f) {
  std::vector<std::string> cs = Split(f.count("inflight") ? f.at("inflight") : "64,256,10000");
  std::vector<std::string> modes = Split(f.count("modes") ? f.at("modes") : "plain,tls1,tls2");
  int latency = f.count("canned") ? -1 : static_cast<int>(Num(f, "latency-ms", 500));
  int waves_flag = static_cast<int>(Num(f, "waves", 0));
  int sdk_max = f.count("no-sdk") ? 0 : static_cast<int>(Num(f, "sdk-max", 256));
  int repeat = std::max(1, static_cast<int>(Num(f, "repeat", 1)));
  std::string ca_path = f.count("ca-path") ? f.at("ca-path") : "";
  std::printf("%-7s %-6s %-6s %8s %7s %9s %7s %6s %9s %10s %8s %8s %s\n", "C", "mode", "client",
              "calls/s", "%ideal", "CPU us/c", "x floor", "open conns", "conns/1k", "full hs/1k",
              "KB/call", "nginx us", "protocol");
  std::map<std::string, double> baseline_rss;  // by client + mode + calls
  for (const std::string& c_text : cs) {
    int c = std::atoi(c_text.c_str());
    int waves = waves_flag > 0 ? waves_flag : (c <= 1024 ? 24 : 8);
    for (const std::string& mode : modes) {
      double floor_us = 0;
      std::vector<std::string> clients = {"floor", "engine"};
      if (c <= sdk_max) clients.push_back("sdk");
      // The clients take turns, `repeat` times, so that a slow minute of the machine falls on
      // all of them; each row is then the run with the median rate.
      std::map<std::string, std::vector<Fields>> runs;
      for (int rep = 0; rep < repeat; ++rep) {
        for (const std::string& what : clients) {
          runs[what].push_back(RunCell(self, what, mode, c, latency, c * waves, ca_path));
        }
      }
      double ideal = latency > 0 ? c / (latency / 1000.0) : 1e300;  // --canned: none
      for (const std::string& what : clients) {
        // The baseline sends as many calls (all are queued at once) with 16 in flight.
        std::string key = what + "/" + mode + "/" + std::to_string(c * waves);
        if (!baseline_rss.count(key)) {
          Fields b = RunCell(self, what, mode, 16, latency < 0 ? -1 : 1, c * waves, ca_path);
          baseline_rss[key] = D(b, "peak_rss_kb");
        }
        std::vector<Fields>& all = runs[what];
        std::sort(all.begin(), all.end(), [](const Fields& a, const Fields& b) {
          return D(a, "calls_per_s") < D(b, "calls_per_s");
        });
        std::string spread;
        for (const Fields& x : all) {
          char one[16];
          std::snprintf(one, sizeof(one), " %.1f", 100.0 * D(x, "calls_per_s") / ideal);
          spread += one;
        }
        Fields& r = all[all.size() / 2];
        // A run that failed is shown whichever run has the median rate.
        const Fields* failed = nullptr;
        for (const Fields& x : all) {
          if (x.count("error")) failed = &x;
        }
        double cpu = D(r, "cpu_us_per_call");
        if (what == "floor") floor_us = cpu;
        std::printf(
            "%-7d %-6s %-6s %8.0f %6.1f%% %9.1f %7.2f %6s %9.2f %10.2f %8.1f %8.1f %s%s%s\n", c,
            mode.c_str(), what.c_str(), D(r, "calls_per_s"), 100.0 * D(r, "calls_per_s") / ideal,
            cpu, floor_us > 0 ? cpu / floor_us : 0,
            r.count("open_conns") ? r["open_conns"].c_str() : "-", D(r, "conns_per_1000"),
            D(r, "full_handshakes_per_1000"), (D(r, "peak_rss_kb") - baseline_rss[key]) / (c - 16),
            D(r, "nginx_us_per_call"), r.count("protocol") ? r["protocol"].c_str() : "-",
            failed ? ("  " + failed->at("error") +
                      " failed=" + (failed->count("failed") ? failed->at("failed") : "?"))
                         .c_str()
                   : "",
            repeat > 1 && latency > 0 ? ("  %ideal of the runs:" + spread).c_str() : "");
        std::fflush(stdout);
      }
    }
  }
  return 0;
}

}  // namespace
}  // namespace structure::bench

int main(int argc, char** argv) {
  using namespace structure::bench;
  long limit = RaiseFileLimit();
  structure::providers::InitCurlOnce();
  std::string mode = argc > 1 ? argv[1] : "";
  auto f = Flags(argc, argv);
  if (mode == "cell") {
    int inflight = static_cast<int>(Num(f, "inflight", 256));
    if (limit < 2L * inflight + 256) {
      std::fprintf(stderr, "bench_tls: open-file limit %ld is too low for %d in flight\n", limit,
                   inflight);
    }
    int latency = static_cast<int>(Num(f, "latency-ms", 500));
    int calls = static_cast<int>(Num(f, "calls", inflight * 8));
    std::string what = f.count("what") ? f.at("what") : "engine";
    std::string m = f.count("mode") ? f.at("mode") : "tls2";
    std::string ca_path = f.count("ca-path") ? f.at("ca-path") : "";
    if (what == "floor") return FloorCell(m, inflight, latency, calls, ca_path);
    if (what == "sdk") return SdkCell(m, inflight, latency, calls);
    return EngineCell(m, inflight, latency, calls, ca_path);
  }
  // Flags() skips argv[1]: with no mode word, read them from the start.
  std::vector<char*> args = {argv[0], const_cast<char*>("matrix")};
  for (int i = 1; i < argc; ++i) args.push_back(argv[i]);
  return Matrix(argv[0], Flags(static_cast<int>(args.size()), args.data()));
}
