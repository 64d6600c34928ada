// Google Benchmark of the wire formats: building a request body and parsing a
// success reply, per provider kind, on the golden test call and replies. This is the per-call
// work the provider pool does on a CAF worker; bench_pool measures the whole round trip.
//
//   build/providers-release/bench/bench_wire --benchmark_min_time=0.2
#include <benchmark/benchmark.h>

#include <fstream>
#include <sstream>
#include <string>

#include "providers/wire.h"
#include "tests/providers/golden.h"

namespace structure::providers {
namespace {

std::string ReadData(const std::string& rel) {
  std::ifstream f(std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/providers/" + rel);
  std::stringstream ss;
  ss << f.rdbuf();
  return ss.str();
}

Endpoint EndpointOf(ProviderKind kind) {
  Endpoint e;
  e.kind = kind;
  e.base_url = "http://127.0.0.1:8089";
  e.api_key = "sk-bench";
  return e;
}

void BuildBody(benchmark::State& state, ProviderKind kind) {
  ProviderCall call = testing::BasicCall();
  Endpoint e = EndpointOf(kind);
  size_t bytes = 0;
  for (auto _ : state) {
    auto req = BuildRequest(call, e);
    bytes += req->body.size();
    benchmark::DoNotOptimize(req);
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}

void ParseSuccess(benchmark::State& state, ProviderKind kind, const char* rel) {
  HttpResponse resp;
  resp.status = 200;
  resp.headers = {{"content-type", "application/json"}};
  resp.body = ReadData(rel);
  for (auto _ : state) {
    auto reply = ParseReply(kind, resp);
    if (!reply.ok()) state.SkipWithError(reply.status().ToString().c_str());
    benchmark::DoNotOptimize(reply);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * resp.body.size()));
}

BENCHMARK_CAPTURE(BuildBody, openai, ProviderKind::kOpenAi);
BENCHMARK_CAPTURE(BuildBody, anthropic, ProviderKind::kAnthropic);
BENCHMARK_CAPTURE(BuildBody, gemini, ProviderKind::kGemini);
BENCHMARK_CAPTURE(BuildBody, ollama, ProviderKind::kOllama);
BENCHMARK_CAPTURE(ParseSuccess, openai, ProviderKind::kOpenAi, "openai/reply_success.json");
BENCHMARK_CAPTURE(ParseSuccess, anthropic, ProviderKind::kAnthropic,
                  "anthropic/reply_success.json");
BENCHMARK_CAPTURE(ParseSuccess, gemini, ProviderKind::kGemini, "gemini/reply_success.json");
BENCHMARK_CAPTURE(ParseSuccess, ollama, ProviderKind::kOllama, "ollama/reply_success.json");

}  // namespace
}  // namespace structure::providers

BENCHMARK_MAIN();
