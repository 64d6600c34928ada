// The long-document benchmark (issue 45; docs/engine.md "Long documents"): a generated invoice
// of about 1 MB (780 line items) through `structure run` against `structure sim` with a model of
// an 8 192-token context that refuses longer requests, no window configured: the first call is
// refused, the window learned, the input split and the parts sent at once. Prints the calls,
// the parts, the input tokens with and without the prompt cache, the output tokens, the wall
// time and the peak memory of `structure run`; then the same with --max-input-tokens 2000
// (more, smaller parts, no refusal). The result is checked against the invoice's truth.
//
//   build/rel/bench/bench_long_document [--structure BIN] [--items N]
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>

#include "tests/support/long_invoice.h"
#include "tests/support/shell_command.h"
#include "tests/support/sim_process.h"

namespace {

std::string TempDir() {
  char tmpl[] = "/tmp/structure-long-document-XXXXXX";
  const char* d = mkdtemp(tmpl);
  return d ? std::string(d) + "/" : "/tmp/";
}

long long Field(const std::string& text, const char* key) {
  size_t p = text.find(key);
  return p == std::string::npos
             ? -1
             : std::atoll(text.c_str() + p + std::char_traits<char>::length(key));
}

void RunOne(const std::string& binary, const std::string& dir, const std::string& extra,
            const structure::testing::LongInvoice& inv, const char* label) {
  std::string err;
  auto sim = structure::testing::StartSim(binary, {"--scenario", dir + "scenario.json"}, &err);
  if (!sim) {
    std::fprintf(stderr, "sim: %s\n", err.c_str());
    std::exit(1);
  }
  std::string cmd = "/usr/bin/time -f '%M' -o '" + dir + "rss' " + binary +
                    " run --provider openai --base-url " + sim->base_url() +
                    " --model openai/long-context-8k --schema " + dir +
                    "schema.json --prompt-file " + dir + "invoice.txt" + extra + " 2>/dev/null";
  auto start = std::chrono::steady_clock::now();
  structure::testing::CommandRun r = structure::testing::RunShell(cmd);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::string stats = structure::testing::RunShell("curl -s " + sim->base_url() + "/stats").out;
  std::ifstream rss_in(dir + "rss");
  long long rss_kb = 0;
  rss_in >> rss_kb;
  auto result = structure::ParseJson(r.out);
  bool truth = result.ok() && result->find("data") && *result->find("data") == inv.truth;
  std::printf(
      "%-28s exit %d, equals the truth: %s\n  parts %lld, sim requests %lld (refused %lld), "
      "input tokens %lld (cached %lld, full price %lld), output tokens %lld\n  wall %.2f s, "
      "peak RSS of structure run %.1f MB\n",
      label, r.exit_code, truth ? "yes" : "NO", Field(r.out, "\"inputParts\": "),
      Field(stats, "\"total\":"), Field(stats, "\"context_too_long\":"),
      Field(r.out, "\"inputTokens\": "), Field(r.out, "\"cachedInputTokens\": "),
      Field(r.out, "\"inputTokens\": ") - Field(r.out, "\"cachedInputTokens\": "),
      Field(r.out, "\"outputTokens\": "), secs, static_cast<double>(rss_kb) / 1024.0);
}

}  // namespace

int main(int argc, char** argv) {
  std::string binary = STRUCTURE_BINARY;
  int items = 780;  // about 1 MB, under the 1 MiB prompt limit
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--structure") binary = argv[i + 1];
    if (a == "--items") items = std::atoi(argv[i + 1]);
  }
  std::string dir = TempDir();
  auto inv = structure::testing::MakeLongInvoice(items);
  std::ofstream(dir + "invoice.txt") << inv.text;
  std::ofstream(dir + "schema.json") << structure::testing::LongInvoiceSchema();
  std::ofstream(dir + "scenario.json") << structure::testing::LongInvoiceScenario(8192);
  std::printf("invoice: %zu bytes, %d line items; model window 8192 tokens, none configured\n",
              inv.text.size(), items);
  RunOne(binary, dir, "", inv, "window learned (refusal)");
  RunOne(binary, dir, " --max-input-tokens 2000", inv, "--max-input-tokens 2000");
  RunOne(binary, dir, " --evidence report", inv, "window learned, --evidence");
  std::string rm = "rm -rf '" + dir + "'";
  return std::system(rm.c_str()) == 0 ? 0 : 1;
}
