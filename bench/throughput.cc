// The throughput harness (issue 8): drives `structure batch` (the engine process) against
// `structure sim` and prints one table: calls/s, % of ideal (in-flight / (latency x HTTP calls
// per record)), CPU µs per call of the engine process, peak RSS and bytes per in-flight call.
// Rates and CPU are measured in the steady middle of each run (from 10 % to 90 % of the
// records written), so start-up and the last partial wave do not count. See docs/batch.md.
//
//   build/batch-release/bench/throughput [--structure BIN] [--quick] [--scale F]
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "tests/actors/sim_process.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Setting {
  std::string name;
  int in_flight;
  int latency_ms;
  double invalid_rate;
  long calls;
};

struct Measure {
  double calls_per_s = 0;
  double ideal_per_s = 0;
  double cpu_us_per_call = 0;
  long peak_rss_kb = 0;
  double http_per_record = 1;
  long records = 0;
  int exit_code = 0;
  double sim_cpu_s = 0;
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

// Runs one batch job and samples it; `sim_args` configure the simulator.
Measure RunOne(const std::string& binary, const Setting& s, const std::string& dir) {
  Measure m;
  std::vector<std::string> sim_args = {"--latency-ms", std::to_string(s.latency_ms), "--seed", "1"};
  if (s.invalid_rate > 0) {
    sim_args.push_back("--invalid-rate");
    sim_args.push_back(std::to_string(s.invalid_rate));
  }
  std::string err;
  auto sim = structure::testing::SimProcess::Start(binary, sim_args, &err);
  if (!sim) {
    std::fprintf(stderr, "throughput: %s\n", err.c_str());
    std::exit(1);
  }
  std::string in = dir + "in.jsonl", out = dir + "out.jsonl", cfg = dir + "engine.toml";
  std::string schema = dir + "schema.json";
  std::ofstream(schema) << kSchema;
  {
    std::ofstream f(in);
    for (long i = 0; i < s.calls; ++i) {
      f << "{\"id\":" << i << ",\"prompt\":\"Ticket " << i
        << ": Dana (dana@example.com) reports the CSV export hangs; urgent bug.\"}\n";
    }
  }
  std::ofstream(cfg) << "[providers.sim]\nkind = \"openai\"\nmodel = \"sim-1\"\nprofile = \"openai-strict\"\n"
                     << "base_url = \"" << sim->base_url() << "/v1\"\n"
                     << "[providers.sim.limits]\nmax_concurrency = " << s.in_flight
                     << "\ntimeout_ms = 600000\n[aliases]\n\"default:fast\" = \"sim\"\n";
  ::unlink(out.c_str());
  std::vector<std::string> args = {binary, "batch", in, "-o", out, "--concurrency", std::to_string(s.in_flight),
                                   "--config", cfg, "--schema", schema, "--database", ":memory:"};
  auto t0 = Clock::now();
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
  long lo = s.calls / 10, hi = s.calls * 9 / 10, lines = 0;
  double t_lo = 0, t_hi = 0, cpu_lo = 0, cpu_hi = 0;
  long n_lo = 0, n_hi = 0;
  int fd = -1;
  char buf[1 << 16];
  int status = 0;
  rusage ru{};
  for (;;) {
    if (fd < 0) fd = open(out.c_str(), O_RDONLY);
    if (fd >= 0) {
      ssize_t n;
      while ((n = read(fd, buf, sizeof(buf))) > 0) {
        for (ssize_t i = 0; i < n; ++i) lines += buf[i] == '\n';
      }
    }
    double now = std::chrono::duration<double>(Clock::now() - t0).count();
    if (n_lo == 0 && lines >= lo) {
      t_lo = now, cpu_lo = CpuSeconds(pid), n_lo = lines;
    }
    if (n_hi == 0 && lines >= hi) {
      t_hi = now, cpu_hi = CpuSeconds(pid), n_hi = lines;
    }
    if (wait4(pid, &status, WNOHANG, &ru) == pid) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (fd >= 0) close(fd);
  sim->Stop();
  m.sim_cpu_s = sim->cpu_seconds();
  m.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  m.peak_rss_kb = ru.ru_maxrss;
  // HTTP calls per record, from the results' "iterations".
  auto text = std::ifstream(out);
  std::string line;
  long iterations = 0;
  while (std::getline(text, line)) {
    size_t p = line.find("\"iterations\":");
    if (p != std::string::npos) iterations += std::atol(line.c_str() + p + 13);
    ++m.records;
  }
  if (m.records > 0) m.http_per_record = static_cast<double>(iterations) / static_cast<double>(m.records);
  if (n_hi > n_lo && t_hi > t_lo) {
    m.calls_per_s = static_cast<double>(n_hi - n_lo) / (t_hi - t_lo);
    m.cpu_us_per_call = (cpu_hi - cpu_lo) * 1e6 / static_cast<double>(n_hi - n_lo);
  }
  m.ideal_per_s = s.in_flight / (s.latency_ms / 1000.0 * m.http_per_record);
  return m;
}

}  // namespace

int main(int argc, char** argv) {
  std::string binary = STRUCTURE_BINARY;
  double scale = 1;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--structure" && i + 1 < argc) {
      binary = argv[++i];
    } else if (a == "--scale" && i + 1 < argc) {
      scale = std::atof(argv[++i]);
    } else if (a == "--quick") {
      scale = 0.25;
    } else {
      std::fprintf(stderr, "usage: throughput [--structure BIN] [--scale F | --quick]\n");
      return 2;
    }
  }
  // 10 000 calls in flight need 10 000 sockets in the engine and in the simulator.
  rlimit rl{};
  getrlimit(RLIMIT_NOFILE, &rl);
  rl.rlim_cur = rl.rlim_max;
  setrlimit(RLIMIT_NOFILE, &rl);
  if (rl.rlim_cur < 20500) {
    std::fprintf(stderr, "throughput: RLIMIT_NOFILE is %llu; 10 000 in flight needs ~20 500\n",
                 static_cast<unsigned long long>(rl.rlim_cur));
  }
  std::string dir = TempDir();
  auto calls = [&](long n) { return std::max(200L, static_cast<long>(static_cast<double>(n) * scale)); };
  std::vector<Setting> settings = {
      {"256 in flight, 200 ms", 256, 200, 0, calls(256 * 40)},
      {"10000 in flight, 500 ms", 10000, 500, 0, calls(10000 * 12)},
      {"256 in flight, 200 ms, 30% invalid", 256, 200, 0.3, calls(256 * 40)},
  };
  Measure base = RunOne(binary, {"baseline", 1, 1, 0, 100}, dir);
  std::printf("structure batch -> structure sim on loopback (%s); baseline peak RSS %.1f MB\n", binary.c_str(),
              static_cast<double>(base.peak_rss_kb) / 1024.0);
  std::printf("%-36s %7s %9s %9s %8s %8s %9s %10s %12s %6s\n", "setting", "records", "HTTP/rec", "calls/s",
              "ideal/s", "% ideal", "CPU us/call", "peak RSS", "B/in-flight", "exit");
  for (const Setting& s : settings) {
    Measure m = RunOne(binary, s, dir);
    double per = static_cast<double>(m.peak_rss_kb - base.peak_rss_kb) * 1024.0 / s.in_flight;
    std::printf("%-36s %7ld %9.2f %9.0f %8.0f %7.1f%% %11.1f %8.1f MB %12.0f %6d\n", s.name.c_str(), m.records,
                m.http_per_record, m.calls_per_s, m.ideal_per_s, 100.0 * m.calls_per_s / m.ideal_per_s,
                m.cpu_us_per_call, static_cast<double>(m.peak_rss_kb) / 1024.0, per, m.exit_code);
    std::fflush(stdout);
  }
  std::string cleanup = "rm -rf '" + dir + "'";
  if (std::system(cleanup.c_str()) != 0) return 1;
  return 0;
}
