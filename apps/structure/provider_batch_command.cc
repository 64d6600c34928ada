#include "apps/structure/provider_batch_command.h"

#include <unistd.h>

#include <cstdio>
#include <filesystem>

#include "base/output_file.h"
#include "base/read_file.h"
#include "batch/batch_state.h"
#include "batch/provider_batch.h"
#include "batch/provider_batch_stats.h"
#include "batch/stats_file.h"
#include "engine/provider_setup.h"

namespace structure::apps {

namespace {

constexpr const char* kOnlyWithProviderBatch[] = {
    "no-wait", "poll-ms", "max-poll-ms", "batch-max-requests", "batch-max-bytes", "batch-retries"};

uint64_t Fnv(std::string_view bytes, uint64_t h) {
  for (unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

// What shapes the requests besides the input: the schema and config files' contents and the
// flags that reach a request. A resume with other values would answer old batches' requests
// with new conversations.
std::string Fingerprint(const Args& args, const std::string& input) {
  uint64_t h = Fnv(input, 0xcbf29ce484222325ULL);
  for (const char* flag :
       {"schema", "schema-name", "schema-text", "max-loops", "tenant", "project", "model",
        "priority", "provider", "base-url", "config", "registry-dir", "shard"}) {
    std::string v = args.get(flag);
    h = Fnv(std::string(flag) + "=" + v + "\n", h);
    if ((std::string(flag) == "schema" || std::string(flag) == "config") && !v.empty()) {
      auto text = ReadFile(v);
      if (text.ok()) h = Fnv(*text, h);
    }
  }
  char buf[17];
  std::snprintf(buf, sizeof(buf), "%016llx", static_cast<unsigned long long>(h));
  return buf;
}

// One message for every value out of range, just out or far out: "--poll-ms: must be
// 1..86400000 (was 0)".
Result<int64_t> InRange(const Args& args, const char* flag, int64_t min, int64_t max) {
  auto v = args.GetInt(flag, 0);
  if (!v.ok()) return v.status();
  if (*v < min || *v > max) {
    return InvalidArgument(std::string("--") + flag + ": must be " + std::to_string(min) + ".." +
                           std::to_string(max) + " (was " + args.get(flag) + ")");
  }
  return static_cast<int64_t>(*v);
}

}  // namespace

Status ApplyProviderBatchNumbers(const Args& args, batch::ProviderBatchOptions& o) {
  struct Flag {
    const char* name;
    int64_t min, max;
    int64_t* out;
  };
  int64_t retries = o.retries;
  for (Flag f : {Flag{"poll-ms", 1, 86'400'000, &o.poll_ms},
                 Flag{"max-poll-ms", 1, 86'400'000, &o.max_poll_ms},
                 Flag{"batch-max-requests", 1, 1'000'000'000, &o.max_requests},
                 Flag{"batch-max-bytes", 1, int64_t{1} << 40, &o.max_bytes},
                 Flag{"batch-retries", 0, 100, &retries}}) {
    if (!args.has(f.name)) continue;
    auto v = InRange(args, f.name, f.min, f.max);
    if (!v.ok()) return v.status();
    *f.out = *v;
  }
  o.retries = static_cast<int>(retries);
  if (args.has("poll-ms") && args.has("max-poll-ms") && o.max_poll_ms < o.poll_ms) {
    return InvalidArgument("--max-poll-ms: must be at least --poll-ms (" +
                           std::to_string(o.poll_ms) + "; was " + args.get("max-poll-ms") + ")");
  }
  return Status::Ok();
}

void AddProviderBatchFlags(std::vector<FlagSpec>& spec) {
  spec.push_back({"provider-batch", false,
                  "send the calls through the provider's batch API (half price, up to a day; "
                  "needs IN and -o OUT)"});
  spec.push_back({"no-wait", false,
                  "--provider-batch: submit, read what has ended, and exit (--resume continues)"});
  spec.push_back(
      {"poll-ms", true, "N: --provider-batch: first wait between polls (default: config, 5000)"});
  spec.push_back({"max-poll-ms", true,
                  "N: --provider-batch: longest wait between polls (default: config, 60000)"});
  spec.push_back({"batch-max-requests", true,
                  "N: --provider-batch: requests per batch at most (default: the provider's)"});
  spec.push_back({"batch-max-bytes", true,
                  "N: --provider-batch: bytes per batch at most (default: the provider's)"});
  spec.push_back(
      {"batch-retries", true,
       "N: --provider-batch: resends of a call that expired or failed transiently (default 3)"});
}

std::string ProviderBatchStateDir(const std::string& out_path) { return out_path + ".pbatch"; }

Status CheckProviderBatchFlags(const Args& args, const std::string& in_path,
                               const std::string& out_path, bool resume) {
  if (!args.has("provider-batch")) {
    for (const char* flag : kOnlyWithProviderBatch) {
      if (args.has(flag))
        return InvalidArgument(std::string("--") + flag + " needs --provider-batch");
    }
    std::string dir = ProviderBatchStateDir(out_path);
    if (!out_path.empty() && batch::BatchState::Exists(dir)) {
      if (!args.has("overwrite")) {
        return InvalidArgument(dir +
                               " holds a provider batch job for this output: continue it with "
                               "--provider-batch --resume, or start over with --overwrite");
      }
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
      if (ec) return InvalidArgument("cannot remove " + dir + ": " + ec.message());
    }
    return Status::Ok();
  }
  if (in_path == "-")
    return InvalidArgument("--provider-batch needs an input file (IN.jsonl), not stdin");
  if (out_path.empty())
    return InvalidArgument("--provider-batch needs an output file (-o OUT.jsonl)");
  if (args.has("concurrency"))
    return InvalidArgument("--concurrency does not apply to --provider-batch");
  batch::ProviderBatchOptions numbers;
  STRUCTURE_RETURN_IF_ERROR(ApplyProviderBatchNumbers(args, numbers));
  auto out = ResolveOutput(out_path);
  if (out.ok() && out->in_place()) {
    return InvalidArgument("--provider-batch needs a regular file to write and resume: " +
                           out_path + " is " + std::string(OutputKindName(out->kind)));
  }
  std::string dir = ProviderBatchStateDir(out_path);
  if (batch::BatchState::Exists(dir) && !resume) {
    if (!args.has("overwrite")) {
      return InvalidArgument(dir +
                             " holds a provider batch job in progress: --resume to continue it, "
                             "--overwrite to start over (its batches keep running and are billed)");
    }
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    if (ec) return InvalidArgument("cannot remove " + dir + ": " + ec.message());
  }
  return Status::Ok();
}

int RunProviderBatchCommand(const Args& args, const batch::BatchOptions& options,
                            const std::string& in_path, const std::string& out_path, Engine& engine,
                            batch::JournalWriter& out, const batch::JournalScan* resume,
                            const std::atomic<int>* interrupts) {
  auto fail = [](const std::string& m) {
    std::fprintf(stderr, "structure batch: %s\n", m.c_str());
    return 2;
  };
  std::error_code ec;
  if (std::filesystem::is_directory(in_path, ec))
    return fail("cannot read " + in_path + ": it is a directory");
  // Read whole (each round goes over every record): bounded, so /dev/zero stops.
  auto input = ReadFile(in_path, size_t{1} << 30,
                        "the --provider-batch input limit: split the input into smaller files");
  if (!input.ok()) return fail(input.status().message());
  batch::ProviderBatchOptions o;
  o.ordered = options.ordered;
  o.no_wait = args.has("no-wait");
  o.defaults = options.defaults;
  o.shard = options.shard;
  o.fingerprint = Fingerprint(args, *input);
  o.interrupts = interrupts;
  o.progress = isatty(STDERR_FILENO) == 1;
  o.state_dir = ProviderBatchStateDir(out_path);
  Status flags = ApplyProviderBatchNumbers(args, o);
  if (!flags.ok()) return fail(flags.message());

  batch::ProviderBatchEnv env;
  env.prepare = [&engine](pipeline::StructureRequest r,
                          std::function<void(pipeline::PreparedCall)> ready,
                          std::function<void(pipeline::CallResult)> done) {
    EngineInternal::Prepare(engine, std::move(r), std::move(ready), std::move(done));
  };
  const config::EngineConfig& cfg = EngineInternal::Config(engine);
  env.settings = [&cfg](const std::string& provider) {
    auto it = cfg.providers.find(provider);
    return it == cfg.providers.end() ? config::BatchSettings{} : it->second.batch;
  };
  // Batch files and polls go to the provider the calls use, through its proxy and CAs.
  providers::CurlOptions curl;
  auto in_use = actors::ProvidersInUse(cfg, args.has("provider") ? args.get("provider") : "");
  if (!in_use.empty()) curl.network = EngineInternal::Network(engine, in_use.front());
  auto send = batch::MakeCurlSend(curl);
  if (!send.ok()) return fail(send.status().message());
  env.send = std::move(*send);

  batch::ProviderBatchReport report = batch::RunProviderBatch(o, env, *input, &out, resume);
  batch::BatchCounts all = report.batch.all();
  double rate = report.batch.elapsed_s > 0
                    ? static_cast<double>(report.batch.run.total()) / report.batch.elapsed_s
                    : 0;
  std::fprintf(stderr, "%s; %s\n",
               batch::FormatSummary(all, report.batch.resumed.total(), report.batch.elapsed_s, rate,
                                    report.batch.interrupted)
                   .c_str(),
               batch::FormatBatchSummary(report).c_str());
  if (args.has("stats")) {
    Status written =
        batch::WriteStatsJson(args.get("stats"), batch::ProviderBatchStatsDocument(report));
    if (!written.ok()) return fail(written.message());
  }
  if (!report.batch.io_error.ok()) return fail(report.batch.io_error.message());
  if (!report.job_error.ok()) {
    std::fprintf(stderr, "structure batch: stopped: %s\n", report.job_error.message().c_str());
  }
  if (report.batch.interrupted) return 130;
  if (!report.job_error.ok()) return report.job_error.code() == Code::kInvalidArgument ? 2 : 1;
  if (report.waiting > 0) return 0;  // --no-wait: submitted; --resume collects
  return all.all_ok() ? 0 : 1;
}

}  // namespace structure::apps
