// `structure sim`: the offline provider simulator (docs/simulator.md). Serves the OpenAI,
// Anthropic, Gemini and Ollama chat wire formats on loopback until SIGINT/SIGTERM.
#include <sys/resource.h>

#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "apps/structure/args.h"
#include "apps/structure/command.h"
#include "sim/sim_server.h"

namespace structure::apps {
namespace {

const std::vector<FlagSpec>& Spec() {
  static const std::vector<FlagSpec> spec = {
      {"port", true, "N: port on 127.0.0.1 (0 picks a free one; default 8089)"},
      {"host", true, "ADDR: listen address (default 127.0.0.1)"},
      {"scenario", true, "FILE: scenario file (rules, keys, fault rates, limits)"},
      {"latency-ms", true, "N: fixed answer latency in milliseconds"},
      {"latency", true, "DIST: fixed:MS, uniform:MIN,MAX or lognormal:MEDIAN,SIGMA"},
      {"invalid-rate", true, "R: share of generated answers that violate a schema constraint"},
      {"need-rate", true, "R: share of generated answers that are the _need form"},
      {"prose-rate", true, "R: share of generated answers wrapped in prose"},
      {"fence-rate", true, "R: share of generated answers in a ```json fence"},
      {"malformed-rate", true, "R: share of generated answers with broken JSON syntax"},
      {"truncate-rate", true, "R: share of generated answers cut off (finish reason length)"},
      {"refusal-rate", true, "R: share of generated answers that are refusals"},
      {"ungrounded-rate", true,
       "R: share of generated evidence answers with an invented value (a quote not in the prompt)"},
      {"rate-429", true, "R: share of requests answered 429 (injected)"},
      {"retry-hint", true,
       "H: how injected 429s say when to retry: retry-after, "
       "retry-after-ms, x-ratelimit or none"},
      {"error-rate", true, "R: share of requests answered 5xx"},
      {"reset-rate", true, "R: share of connections reset instead of answered"},
      {"slow-rate", true, "R: share of answers sent as a slow body"},
      {"rpm", true, "N: enforced requests per minute per provider (429 above)"},
      {"tpm", true, "N: enforced tokens per minute per provider (429 above)"},
      {"seed", true, "S: seed for every random choice (deterministic runs)"},
      {"reply-shape", true,
       "SHAPE: answers in a variant real servers send: content_parts (Mistral, OpenAI format), "
       "arguments_missing (OpenRouter, OpenAI format), thinking_only (Ollama), standard"},
      {"invalid-key", true, "KEY: an API key to reject with the provider's 401", true},
      {"threads", true, "N: event-loop threads (default 1)"},
      {"batch-delay-ms", true, "N: provider batches end N ms after they are created (default 0)"},
      {"batch-error-rate", true, "R: share of requests in a batch answered with a transient error"},
      {"batch-expire-rate", true, "R: share of requests in a batch left unanswered as expired"},
      {"record-requests", true,
       "OUT: append every provider request received to the file OUT, created if absent (tests)"},
      {"batch-reject-rate", true,
       "R: share of requests in a batch answered with the provider's 400"},
      {"batch-malformed-rate", true,
       "R: share of requests in a batch answered 200 with a body that is not a reply"},
      {"batch-fault", true, "K:KIND: the K-th batch created ends failed, expired or cancelled",
       true},
      {"batch-max-requests", true, "N: requests per batch at most (default: the provider's limit)"},
      {"batch-max-bytes", true,
       "N: bytes per batch file or create request at most (default: the provider's)"},
      {"batch-slow-download-ms", true, "N: batch results are sent in 1 KB pieces N ms apart"},
      {"batch-lose-create", true, "K: the K-th batch is created but its create call answers 500",
       true},
  };
  return spec;
}

constexpr int64_t kMaxLatencyMs = 3'600'000;  // an hour: longer is a typo, not a test

Status ApplyRate(const Args& a, const char* flag, double* out) {
  if (!a.has(flag)) return Status::Ok();
  auto v = a.GetDouble(flag, 0);
  if (!v.ok()) return v.status();
  if (*v < 0 || *v > 1) {
    return InvalidArgument(std::string("--") + flag + ": must be 0..1 (was " + a.get(flag) + ")");
  }
  *out = *v;
  return Status::Ok();
}

Status ApplyBatchFlags(const Args& a, sim::BatchOptions& b) {
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "batch-error-rate", &b.error_rate));
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "batch-expire-rate", &b.expire_rate));
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "batch-reject-rate", &b.reject_rate));
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "batch-malformed-rate", &b.malformed_rate));
  if (b.error_rate + b.expire_rate + b.reject_rate + b.malformed_rate > 1) {
    return InvalidArgument(
        "--batch-error-rate, --batch-expire-rate, --batch-reject-rate and "
        "--batch-malformed-rate: their sum must be at most 1");
  }
  for (const char* flag :
       {"batch-delay-ms", "batch-max-requests", "batch-max-bytes", "batch-slow-download-ms"}) {
    if (!a.has(flag)) continue;
    auto v = a.GetInt(flag, 0);
    if (!v.ok()) return v.status();
    std::string f(flag);
    bool ms = f == "batch-delay-ms" || f == "batch-slow-download-ms";
    int64_t max = ms ? 86'400'000 : int64_t{1} << 40;
    if (*v < 0 || *v > max) {
      return InvalidArgument("--" + f + ": must be 0.." + std::to_string(max) + " (was " +
                             a.get(flag) + ")");
    }
    if (ms) {
      (f == "batch-delay-ms" ? b.delay_ms : b.slow_download_ms) = static_cast<int>(*v);
    } else {
      (f == "batch-max-requests" ? b.max_requests : b.max_bytes) = *v;
    }
  }
  for (const std::string& k : a.all("batch-lose-create")) {
    char* end = nullptr;
    long long n = std::strtoll(k.c_str(), &end, 10);
    if (n < 1 || end == k.c_str() || *end != '\0') {
      return InvalidArgument("--batch-lose-create: expected K >= 1 (was '" + k + "')");
    }
    b.lost_creates.insert(n);
  }
  for (const std::string& spec : a.all("batch-fault")) {
    size_t colon = spec.find(':');
    std::string kind = colon == std::string::npos ? "" : spec.substr(colon + 1);
    char* end = nullptr;
    long long k = colon == std::string::npos ? 0 : std::strtoll(spec.c_str(), &end, 10);
    if (k < 1 || end != spec.c_str() + colon ||
        (kind != "failed" && kind != "expired" && kind != "cancelled")) {
      return InvalidArgument(
          "--batch-fault: expected K:failed, K:expired or K:cancelled with K >= 1 (was '" + spec +
          "')");
    }
    b.faults[k] = kind;
  }
  return Status::Ok();
}

Result<sim::SimOptions> BuildOptions(const Args& a) {
  sim::SimOptions o;
  if (a.has("scenario")) {
    auto s = sim::LoadScenario(a.get("scenario"));
    if (!s.ok()) return InvalidArgument("--scenario: " + s.status().message());
    o.scenario = std::move(*s);
  }
  if (!o.scenario.latency.empty()) {
    auto l = sim::Latency::Parse(o.scenario.latency);
    if (!l.ok()) return l.status();
    o.latency = *l;
  }
  if (a.has("latency-ms")) {
    auto ms = a.GetInt("latency-ms", 0);
    if (!ms.ok()) return ms.status();
    if (*ms < 0 || *ms > kMaxLatencyMs) {
      return InvalidArgument("--latency-ms: must be 0.." + std::to_string(kMaxLatencyMs) +
                             " (was " + a.get("latency-ms") + ")");
    }
    o.latency = sim::Latency::Fixed(static_cast<int>(*ms));
  }
  if (a.has("latency")) {
    auto l = sim::Latency::Parse(a.get("latency"));
    if (!l.ok()) return l.status();
    o.latency = *l;
  }
  sim::ContentFaults& c = o.scenario.content;
  sim::TransportFaults& t = o.scenario.transport;
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "invalid-rate", &c.invalid));
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "ungrounded-rate", &c.ungrounded));
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "need-rate", &c.need));
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "prose-rate", &c.prose));
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "fence-rate", &c.fence));
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "malformed-rate", &c.malformed));
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "truncate-rate", &c.truncated));
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "refusal-rate", &c.refusal));
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "rate-429", &t.http429));
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "error-rate", &t.http5xx));
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "reset-rate", &t.reset));
  STRUCTURE_RETURN_IF_ERROR(ApplyRate(a, "slow-rate", &t.slow));
  if (a.has("retry-hint")) {
    auto h = sim::ParseRetryHint(a.get("retry-hint"));
    if (!h.ok()) return h.status();
    t.hint429 = *h;
  }
  for (const char* flag : {"rpm", "tpm"}) {
    if (!a.has(flag)) continue;
    auto v = a.GetInt(flag, 0);
    if (!v.ok()) return v.status();
    if (*v < 0) {
      return InvalidArgument(std::string("--") + flag + ": must be >= 0 (was " + a.get(flag) + ")");
    }
    (std::string(flag) == "rpm" ? o.scenario.rpm : o.scenario.tpm) = *v;
  }
  if (a.has("seed")) {
    auto v = a.GetInt("seed", 0);
    if (!v.ok()) return v.status();
    o.seed = static_cast<uint64_t>(*v);
  } else if (o.scenario.seed) {
    o.seed = *o.scenario.seed;
  }
  if (a.has("reply-shape")) {
    auto shape = sim::ParseReplyShape(a.get("reply-shape"));
    if (!shape.ok()) return InvalidArgument("--reply-shape: " + shape.status().message());
    o.scenario.shape = *shape;
  }
  for (const auto& k : a.all("invalid-key")) o.scenario.keys.invalid_keys.insert(k);
  STRUCTURE_RETURN_IF_ERROR(ApplyBatchFlags(a, o.batch));
  if (a.has("record-requests")) {
    auto log = sim::RequestLog::Open(a.get("record-requests"));
    if (!log.ok()) return log.status();
    o.request_log = std::move(*log);
  }
  return o;
}

// Many simultaneous connections need many descriptors: raise the soft limit to the hard one.
void RaiseFileLimit() {
  rlimit rl{};
  if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
  }
}

int RunSim(const std::vector<std::string>& args) {
  int exit_code = 0;
  auto parsed =
      ParseOrHelp("sim", args, Spec(), "structure sim [--port N] [--scenario FILE] [flags]",
                  "Serves simulated OpenAI (/v1/chat/completions), Anthropic "
                  "(/v1/messages), Gemini\n(/v1beta/models/M:generateContent) and "
                  "Ollama (/api/chat) endpoints and their batch APIs (/v1/files, "
                  "/v1/batches,\n/v1/messages/batches, "
                  "models/M:batchGenerateContent) on loopback, plus\nGET /stats. Prints "
                  "'listening on HOST:PORT' first. Stops on SIGINT/SIGTERM.\nSee "
                  "docs/simulator.md for the scenario format.",
                  exit_code);
  if (!parsed) return exit_code;
  auto options = BuildOptions(*parsed);
  if (!options.ok()) {
    std::fprintf(stderr, "structure sim: %s\n", options.status().message().c_str());
    return 2;
  }
  http::ServerOptions server;
  server.host = parsed->get("host", "127.0.0.1");
  auto port = parsed->GetInt("port", 8089);
  auto threads = parsed->GetInt("threads", 1);
  // Each flag's own error, with what was written.
  std::string bad;
  if (!port.ok()) {
    bad = port.status().message();
  } else if (*port < 0 || *port > 65535) {
    bad = "--port: must be 0..65535 (was " + parsed->get("port") + ")";
  } else if (!threads.ok()) {
    bad = threads.status().message();
  } else if (*threads < 1 || *threads > 64) {
    bad = "--threads: must be 1..64 (was " + parsed->get("threads") + ")";
  }
  if (!bad.empty()) {
    std::fprintf(stderr, "structure sim: %s\n", bad.c_str());
    return 2;
  }
  server.port = static_cast<uint16_t>(*port);
  server.threads = static_cast<int>(*threads);
  server.backlog = 65535;
  // Batch files and message batch create requests go up to the providers' own limits (256 MB).
  server.max_body_bytes = size_t{300} << 20;
  RaiseFileLimit();

  // Block the stop signals before any thread starts, so only sigwait below receives them.
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);

  std::shared_ptr<sim::RequestLog> request_log = options->request_log;
  auto sim = sim::SimServer::Start(std::move(*options), server);
  if (!sim.ok()) {
    std::fprintf(stderr, "structure sim: %s\n", sim.status().message().c_str());
    return 1;
  }
  std::printf("listening on %s:%u\n", server.host.c_str(), static_cast<unsigned>((*sim)->port()));
  std::fflush(stdout);
  int received = 0;
  sigwait(&stop_signals, &received);
  std::fprintf(stderr, "structure sim: stopping (signal %d)\n", received);
  if (request_log) request_log->Stop();
  (*sim)->Stop();
  return 0;
}

}  // namespace

STRUCTURE_COMMAND("sim", "run the offline provider simulator (OpenAI, Anthropic, Gemini, Ollama)",
                  RunSim);

}  // namespace structure::apps
