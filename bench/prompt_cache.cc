// The prompt-caching benchmark (issue 17.1): `structure batch` against `structure sim`, N calls
// (default 1 000) on a registry schema with a ~3 000-token manual, per provider with the
// engine's prompt caching on and off (profile_overrides prompt_cache = false), in one run.
//
//   build/rel/bench/bench_prompt_cache [--structure BIN] [--records N] [--concurrency K]
//
// Token counts come from the results' usage (what the engine reports to the user), summed over
// every record; "full price" is input - cached - written (the tokens billed at the plain input
// rate), "% of input" its share of all input tokens (100 % = nothing cached). OpenAI and Gemini
// cache implicitly, so their "off" run (no prompt_cache_key) caches as much as "on" does. Each run
// gets a fresh simulator, so its prompt cache starts empty. The counts are deterministic for a
// given K (the first wave of K calls finds nothing cached), so any build of `structure` gives the
// same numbers; build it first (this target does not depend on it).
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "tests/support/sim_process.h"

namespace {

struct Provider {
  const char* kind;
  const char* model;
};

struct Totals {
  long records = 0, ok = 0, calls = 0;
  long long input = 0, cached = 0, written = 0;
  int exit_code = 0;
  long long full_price() const { return input - cached - written; }
};

const char* kSchema = R"({"x-version":"1.0","type":"object","properties":{
 "name":{"type":"string"},
 "priority":{"type":"string","enum":["low","normal","high","urgent"]},
 "category":{"type":"string","enum":["bug","outage","billing","other"]}},
 "required":["name","priority","category"],"additionalProperties":false})";

std::string TempDir() {
  char tmpl[] = "/tmp/structure-prompt-cache-XXXXXX";
  const char* d = mkdtemp(tmpl);
  return d ? std::string(d) + "/" : "/tmp/";
}

// 12 000 bytes of manual: ~3 000 tokens at the simulator's bytes / 4.
void WriteInputs(const std::string& dir, long records) {
  std::string reg = dir + "registry";
  std::string mk = "mkdir -p '" + reg + "'";
  if (std::system(mk.c_str()) != 0) std::exit(1);
  std::ofstream(reg + "/ticket.json") << kSchema;
  std::string manual = "# Support tickets\n\n";
  for (int i = 0; manual.size() < 12000; ++i) {
    manual += "Rule " + std::to_string(i) +
              ": name the person who reports the ticket; priority is low, normal, high "
              "or urgent; an outage is never below high; billing covers invoices and refunds.\n";
  }
  std::ofstream(reg + "/ticket.manual.md") << manual;
  std::ofstream f(dir + "in.jsonl");
  for (long i = 0; i < records; ++i) {
    f << "{\"id\":" << i << ",\"prompt\":\"Ticket " << i
      << ": Dana (dana@example.com) reports the CSV export hangs; urgent bug.\"}\n";
  }
}

long long Field(const std::string& line, const char* key) {
  size_t p = line.find(key);
  return p == std::string::npos
             ? 0
             : std::atoll(line.c_str() + p + std::char_traits<char>::length(key));
}

Totals RunOne(const std::string& binary, const Provider& p, bool caching, int concurrency,
              const std::string& dir) {
  std::string err;
  auto sim = structure::testing::StartSim(binary, {"--seed", "1"}, &err);
  if (!sim) {
    std::fprintf(stderr, "bench_prompt_cache: %s\n", err.c_str());
    std::exit(1);
  }
  std::string cfg = dir + "engine.toml", out = dir + "out.jsonl";
  std::ofstream(cfg) << "[providers.sim]\nkind = \"" << p.kind << "\"\nmodel = \"" << p.model
                     << "\"\nbase_url = \"" << sim->base_url() << "\"\n"
                     << "[providers.sim.profile_overrides]\nprompt_cache = "
                     << (caching ? "true" : "false") << "\n[aliases]\n\"default:fast\" = \"sim\"\n";
  ::unlink(out.c_str());
  auto batch = structure::testing::ChildProcess::Spawn(
      {binary, "batch", dir + "in.jsonl", "-o", out, "--concurrency", std::to_string(concurrency),
       "--config", cfg, "--schema-name", "ticket", "--registry-dir", dir + "registry", "--database",
       ":memory:"},
      {"", dir + "batch.stdout", dir + "batch.stderr"}, &err);
  Totals t;
  if (!batch) {
    std::fprintf(stderr, "bench_prompt_cache: %s\n", err.c_str());
    std::exit(1);
  }
  t.exit_code = batch->Wait();
  sim->Stop();
  std::ifstream text(out);
  std::string line;
  while (std::getline(text, line)) {
    ++t.records;
    if (line.find("\"status\":\"ok\"") != std::string::npos) ++t.ok;
    t.calls += Field(line, "\"iterations\":");
    t.input += Field(line, "\"inputTokens\":");
    t.cached += Field(line, "\"cachedInputTokens\":");
    t.written += Field(line, "\"cacheWriteTokens\":");
  }
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  std::string binary = STRUCTURE_BINARY;
  long records = 1000;
  int concurrency = 16;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--structure" && i + 1 < argc) {
      binary = argv[++i];
    } else if (a == "--records" && i + 1 < argc) {
      records = std::atol(argv[++i]);
    } else if (a == "--concurrency" && i + 1 < argc) {
      concurrency = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr,
                   "usage: bench_prompt_cache [--structure BIN] [--records N] [--concurrency K]\n");
      return 2;
    }
  }
  if (records < 1 || concurrency < 1) {
    std::fprintf(stderr, "bench_prompt_cache: --records and --concurrency must be at least 1\n");
    return 2;
  }
  std::string dir = TempDir();
  WriteInputs(dir, records);
  const Provider providers[] = {{"anthropic", "claude-sonnet-4-5"},
                                {"openai", "gpt-4.1-mini"},
                                {"gemini", "gemini-2.5-flash"}};
  std::printf(
      "structure batch (%s) -> structure sim: %ld records, schema \"ticket\" with a "
      "12 000-byte manual, %d in flight\n",
      binary.c_str(), records, concurrency);
  std::printf("%-10s %-7s %6s %7s %11s %11s %11s %11s %10s %9s\n", "provider", "caching", "ok",
              "calls", "input tok", "cached tok", "written tok", "full price", "% of input",
              "vs off");
  int rc = 0;
  for (const Provider& p : providers) {
    Totals off = RunOne(binary, p, false, concurrency, dir);
    Totals on = RunOne(binary, p, true, concurrency, dir);
    for (const auto& [name, t] : {std::pair<const char*, const Totals&>{"off", off}, {"on", on}}) {
      double ratio = off.full_price() > 0 ? static_cast<double>(t.full_price()) /
                                                static_cast<double>(off.full_price())
                                          : 0;
      double share =
          t.input > 0 ? 100.0 * static_cast<double>(t.full_price()) / static_cast<double>(t.input)
                      : 0;
      std::printf("%-10s %-7s %6ld %7ld %11lld %11lld %11lld %11lld %9.1f%% %8.3fx\n", p.kind, name,
                  t.ok, t.calls, t.input, t.cached, t.written, t.full_price(), share, ratio);
      if (t.exit_code > 1 || t.records != records) {
        std::printf("  structure batch exited with %d after %ld records (see %sbatch.stderr)\n",
                    t.exit_code, t.records, dir.c_str());
        rc = 1;
      }
    }
    std::fflush(stdout);
  }
  if (rc != 0 || std::getenv("BENCH_KEEP")) return rc;
  std::string cleanup = "rm -rf '" + dir + "'";
  return std::system(cleanup.c_str()) == 0 ? 0 : 1;
}
