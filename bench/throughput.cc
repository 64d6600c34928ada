// The throughput harness (issue 8): drives `structure batch` (the engine process) against
// `structure sim` and prints one table per run. See docs/batch.md.
//
//   build/batch-release/bench/throughput [--structure BIN] [--sim BIN] [--quick] [--scale F]
//   [--only N]
//
// --structure runs another engine binary (e.g. an older build, for a before/after table in one
// run); --sim keeps the simulator binary fixed meanwhile (default: the --structure binary).
//
// - calls/s: HTTP calls to the simulator per second, counted from the results as they are
//   written (each record's "iterations"), measured in the steady middle of the run: from the
//   end of the wave holding the 10 % mark to the end of the wave holding the 90 % mark (a wave
//   is K calls; with a fixed latency calls complete in bursts, so both ends of the window sit
//   at the same phase of a burst).
// - % ideal: calls/s against K / latency (every slot always busy).
// - engine / sim CPU us per call: user+system CPU of the `structure batch` process (all its
//   threads) and, apart, of the `structure sim` process, read from /proc at both ends of the
//   same window, divided by the calls in it.
// - bytes per in-flight call: (peak RSS of the run - peak RSS of a baseline run with the same
//   records at 16 in flight and 1 ms latency) / (K - 16). The baseline holds everything that
//   grows with the records rather than with K (the duplicate-id set).
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "bench/steady_window.h"
#include "tests/support/sim_process.h"

namespace {

using Clock = std::chrono::steady_clock;

constexpr int kBaselineInFlight = 16;

struct Setting {
  std::string name;
  int in_flight;
  int latency_ms;
  double invalid_rate;
  long records;
};

struct Measure {
  long records = 0;
  long not_ok = 0;
  double http_per_record = 1;
  double calls_per_s = 0;
  double engine_us_per_call = 0;
  double sim_us_per_call = 0;
  long peak_rss_kb = 0;
  int exit_code = 0;
  bool windowed = false;
};

const char* kSchema = R"({"type":"object","properties":{
 "name":{"type":"string","minLength":1,"maxLength":80},
 "priority":{"type":"integer","minimum":1,"maximum":5},
 "category":{"type":"string","enum":["bug","outage","billing","other"]},
 "email":{"type":"string","format":"email"},
 "tags":{"type":"array","items":{"type":"string"},"maxItems":5}},
 "required":["name","priority","category"],"additionalProperties":false})";

std::string TempDir() {
  char tmpl[] = "/tmp/structure-throughput-XXXXXX";
  const char* d = mkdtemp(tmpl);
  return d ? std::string(d) + "/" : "/tmp/";
}

// utime + stime of a live process (every thread), from /proc/PID/stat.
double CpuSeconds(pid_t pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  size_t close = text.rfind(')');
  if (close == std::string::npos) return 0;
  std::vector<std::string> fields;
  size_t pos = close + 2;
  while (pos < text.size()) {
    size_t sp = text.find(' ', pos);
    if (sp == std::string::npos) sp = text.size();
    fields.push_back(text.substr(pos, sp - pos));
    pos = sp + 1;
  }
  if (fields.size() < 13) return 0;
  // fields[0] is field 3 (state): utime = field 14, stime = field 15.
  double ticks = std::atof(fields[11].c_str()) + std::atof(fields[12].c_str());
  return ticks / static_cast<double>(sysconf(_SC_CLK_TCK));
}

void WriteInputs(const std::string& dir, long records) {
  std::ofstream(dir + "schema.json") << kSchema;
  std::ofstream f(dir + "in.jsonl");
  for (long i = 0; i < records; ++i) {
    f << "{\"id\":" << i << ",\"prompt\":\"Ticket " << i
      << ": Dana (dana@example.com) reports the CSV export hangs; urgent bug.\"}\n";
  }
}

pid_t StartBatch(const std::string& binary, const Setting& s, const std::string& dir,
                 const std::string& base_url) {
  std::string cfg = dir + "engine.toml", out = dir + "out.jsonl";
  std::ofstream(cfg)
      << "[providers.sim]\nkind = \"openai\"\nmodel = \"sim-1\"\nprofile = \"openai-strict\"\n"
      << "base_url = \"" << base_url << "/v1\"\n"
      << "[providers.sim.limits]\nmax_concurrency = " << s.in_flight
      << "\ntimeout_ms = 600000\n[aliases]\n\"default:fast\" = \"sim\"\n";
  ::unlink(out.c_str());
  std::vector<std::string> args = {binary,
                                   "batch",
                                   dir + "in.jsonl",
                                   "-o",
                                   out,
                                   "--concurrency",
                                   std::to_string(s.in_flight),
                                   "--config",
                                   cfg,
                                   "--schema",
                                   dir + "schema.json",
                                   "--database",
                                   ":memory:"};
  pid_t pid = fork();
  if (pid == 0) {
    int devnull = open("/dev/null", O_WRONLY);
    dup2(devnull, STDERR_FILENO);
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    execv(binary.c_str(), argv.data());
    _exit(127);
  }
  return pid;
}

// Counts statuses and HTTP calls (iterations) in the output.
void ReadResults(const std::string& path, Measure* m) {
  std::ifstream text(path);
  std::string line;
  long iterations = 0;
  while (std::getline(text, line)) {
    size_t p = line.find("\"iterations\":");
    if (p != std::string::npos) iterations += std::atol(line.c_str() + p + 13);
    if (line.find("\"status\":\"ok\"") == std::string::npos) ++m->not_ok;
    ++m->records;
  }
  if (m->records > 0)
    m->http_per_record = static_cast<double>(iterations) / static_cast<double>(m->records);
}

// Runs one batch job against a fresh simulator and samples both processes.
Measure RunOne(const std::string& binary, const std::string& sim_binary, const Setting& s,
               const std::string& dir) {
  std::vector<std::string> sim_args = {"--latency-ms", std::to_string(s.latency_ms), "--seed", "1"};
  if (s.invalid_rate > 0) {
    sim_args.push_back("--invalid-rate");
    sim_args.push_back(std::to_string(s.invalid_rate));
  }
  std::string err;
  auto sim = structure::testing::StartSim(sim_binary, sim_args, &err);
  if (!sim) {
    std::fprintf(stderr, "throughput: %s\n", err.c_str());
    std::exit(1);
  }
  // The window in calls, over the record count (re-asks add calls, so the last waves lie past
  // it).
  auto [lo, hi] = structure::bench::SteadyWindowOf(s.records, s.in_flight);

  pid_t pid = StartBatch(binary, s, dir, sim->base_url());
  struct Mark {
    long calls = 0;
    double t = 0, engine_cpu = 0, sim_cpu = 0;
  } at_lo, at_hi;
  auto t0 = Clock::now();
  long calls = 0;
  std::string partial;  // the output read so far past its last newline
  int fd = -1;
  char buf[1 << 16];
  int status = 0;
  rusage ru{};
  for (;;) {
    if (fd < 0) fd = open((dir + "out.jsonl").c_str(), O_RDONLY);
    if (fd >= 0) {
      ssize_t n;
      while ((n = read(fd, buf, sizeof(buf))) > 0) {
        partial.append(buf, static_cast<size_t>(n));
        size_t start = 0, nl;
        while ((nl = partial.find('\n', start)) != std::string::npos) {
          size_t p = partial.find("\"iterations\":", start);
          if (p != std::string::npos && p < nl) calls += std::atol(partial.c_str() + p + 13);
          start = nl + 1;
        }
        partial.erase(0, start);
      }
    }
    auto mark = [&](Mark* m, long threshold) {
      if (m->calls > 0 || calls < threshold) return;
      m->calls = calls;
      m->t = std::chrono::duration<double>(Clock::now() - t0).count();
      m->engine_cpu = CpuSeconds(pid);
      m->sim_cpu = CpuSeconds(sim->pid());
    };
    mark(&at_lo, lo);
    mark(&at_hi, hi);
    if (wait4(pid, &status, WNOHANG, &ru) == pid) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (fd >= 0) close(fd);
  sim->Stop();

  Measure m;
  m.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  m.peak_rss_kb = ru.ru_maxrss;
  ReadResults(dir + "out.jsonl", &m);
  if (at_hi.calls > at_lo.calls && at_hi.t > at_lo.t) {
    double n = static_cast<double>(at_hi.calls - at_lo.calls);
    m.windowed = true;
    m.calls_per_s = n / (at_hi.t - at_lo.t);
    m.engine_us_per_call = (at_hi.engine_cpu - at_lo.engine_cpu) * 1e6 / n;
    m.sim_us_per_call = (at_hi.sim_cpu - at_lo.sim_cpu) * 1e6 / n;
  }
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  std::string binary = STRUCTURE_BINARY;
  std::string sim_binary;
  double scale = 1;
  size_t only = 0;  // 1-based setting to run alone; 0 = all
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--structure" && i + 1 < argc) {
      binary = argv[++i];
    } else if (a == "--sim" && i + 1 < argc) {
      sim_binary = argv[++i];
    } else if (a == "--scale" && i + 1 < argc) {
      scale = std::atof(argv[++i]);
    } else if (a == "--only" && i + 1 < argc) {
      only = static_cast<size_t>(std::atoi(argv[++i]));
    } else if (a == "--quick") {
      scale = 0.25;
    } else {
      std::fprintf(
          stderr,
          "usage: throughput [--structure BIN] [--sim BIN] [--scale F | --quick] [--only N]\n");
      return 2;
    }
  }
  if (sim_binary.empty()) sim_binary = binary;
  // 10 000 calls in flight need 10 000 sockets in the engine and 10 000 in the simulator; the
  // limit is per process and both children inherit it.
  rlimit rl{};
  getrlimit(RLIMIT_NOFILE, &rl);
  rl.rlim_cur = rl.rlim_max;
  setrlimit(RLIMIT_NOFILE, &rl);
  if (rl.rlim_cur < 10500) {
    std::fprintf(stderr,
                 "throughput: RLIMIT_NOFILE is %llu; 10 000 in flight needs ~10 500 per process\n",
                 static_cast<unsigned long long>(rl.rlim_cur));
  }
  std::string dir = TempDir();
  // At least 8 waves of K records, so that the steady window holds several.
  auto records = [&](int k, long waves) {
    return static_cast<long>(k) * std::max(8L, std::lround(static_cast<double>(waves) * scale));
  };
  std::vector<Setting> settings = {
      {"256 in flight, 200 ms", 256, 200, 0, records(256, 40)},
      {"10000 in flight, 500 ms", 10000, 500, 0, records(10000, 12)},
      {"256 in flight, 200 ms, 30% invalid", 256, 200, 0.3, records(256, 40)},
  };
  std::printf("structure batch (%s) -> structure sim (%s) on loopback, %u cores\n", binary.c_str(),
              sim_binary.c_str(), std::thread::hardware_concurrency());
  std::printf("%-36s %7s %8s %8s %8s %7s %10s %10s %9s %9s %7s\n", "setting", "records", "HTTP/rec",
              "calls/s", "ideal/s", "% ideal", "engine CPU", "sim CPU", "peak RSS", "B/in-flt",
              "not ok");
  std::printf("%-36s %7s %8s %8s %8s %7s %10s %10s %9s %9s %7s\n", "", "", "", "", "", "",
              "us/call", "us/call", "MB", "", "");
  std::fflush(stdout);
  std::map<long, long> baseline_rss_kb;  // by record count
  for (size_t i = 0; i < settings.size(); ++i) {
    if (only != 0 && i + 1 != only) continue;
    const Setting& s = settings[i];
    WriteInputs(dir, s.records);
    if (!baseline_rss_kb.count(s.records)) {
      Setting base{"baseline", kBaselineInFlight, 1, s.invalid_rate, s.records};
      baseline_rss_kb[s.records] = RunOne(binary, sim_binary, base, dir).peak_rss_kb;
    }
    Measure m = RunOne(binary, sim_binary, s, dir);
    double ideal = s.in_flight / (s.latency_ms / 1000.0);
    double per = static_cast<double>(m.peak_rss_kb - baseline_rss_kb[s.records]) * 1024.0 /
                 (s.in_flight - kBaselineInFlight);
    std::printf("%-36s %7ld %8.2f %8.0f %8.0f %6.1f%% %10.1f %10.1f %9.1f %9.0f %7ld%s\n",
                s.name.c_str(), m.records, m.http_per_record, m.calls_per_s, ideal,
                100.0 * m.calls_per_s / ideal, m.engine_us_per_call, m.sim_us_per_call,
                static_cast<double>(m.peak_rss_kb) / 1024.0, per, m.not_ok,
                m.windowed ? "" : "  (no steady window)");
    if (m.exit_code > 1) std::printf("  structure batch exited with %d\n", m.exit_code);
    std::fflush(stdout);
  }
  std::string cleanup = "rm -rf '" + dir + "'";
  if (std::system(cleanup.c_str()) != 0) return 1;
  return 0;
}
