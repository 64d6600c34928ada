// `structure batch`: JSONL requests in, JSONL results out, K calls in flight, durable and
// resumable (docs/batch.md). Exit 0 when every record ended ok, 1 when any did not, 2 for bad
// usage or an unwritable output, 130 when interrupted (input not read to the end, or calls
// cancelled). The job itself is batch/ (batch_runner.h, provider_batch.h); this file parses the
// flags and wires them to it.
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "apps/structure/check_flags.h"
#include "apps/structure/command.h"
#include "apps/structure/engine_flags.h"
#include "apps/structure/provider_batch_command.h"
#include "base/utf8.h"
#include "batch/batch_files.h"
#include "batch/batch_outcome.h"
#include "batch/batch_runner.h"
#include "batch/in_flight_cap.h"
#include "batch/stats_file.h"
#include "config/settings.h"
#include "registry/schema_registry.h"

namespace structure::apps {
namespace {

std::atomic<int> g_interrupts{0};
std::atomic<bool> g_provider_batch{false};

// SIGINT (Ctrl-C) and SIGTERM alike: the first stops reading and waits for the calls in flight,
// the second cancels them.
void OnInterrupt(int sig) {
  int n = g_interrupts.fetch_add(1) + 1;
  const char* msg = g_provider_batch.load() ? "\nstructure batch: stopping; submitted batches keep "
                                              "running at the provider (--resume collects them)\n"
                    : n > 1                 ? "\nstructure batch: cancelling the calls in flight\n"
                    : sig == SIGTERM
                        ? "\nstructure batch: terminated: waiting for the calls in flight (a "
                          "second SIGTERM or Ctrl-C cancels them)\n"
                        : "\nstructure batch: stopping: waiting for the calls in flight "
                          "(Ctrl-C again cancels them)\n";
  ssize_t ignored = ::write(STDERR_FILENO, msg, std::char_traits<char>::length(msg));
  (void)ignored;
}

void CatchInterrupts() {
  struct sigaction sa = {};
  sa.sa_handler = OnInterrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking read of stdin must wake up
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);  // a closed stdout becomes a write error, reported
}

void RestoreInterrupts() {
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "structure batch: %s\n", message.c_str());
  return 2;
}

constexpr const char* kUsageLine =
    "structure batch [IN.jsonl] [-o OUT.jsonl] [--concurrency K] [--ordered] [--resume] [flags]";

constexpr const char* kDescription =
    "Runs one structure call per input line and writes one result line per record.\n"
    "Input line: {\"id\": ..., \"prompt\": ..., \"schema\" | \"schemaName\" | \"schemaText\": "
    "...,\n"
    "\"maxLoops\"?, \"tenant\"?, \"project\"?, ...}; missing fields take the flag defaults "
    "below.\n"
    "Output line: {\"id\": ..., \"status\": ..., \"data\" | \"need\" | \"errors\": ..., ...} "
    "({\"line\": N}\n"
    "when the input line has no id). Reads stdin without IN, writes stdout without -o. Each\n"
    "result is appended as soon as it completes, so a killed job loses nothing: rerun it with\n"
    "--resume to skip the records already in OUT. Ctrl-C stops reading and waits for the calls\n"
    "in flight; a second Ctrl-C cancels them (recorded as cancelled, rerun by --resume).\n"
    "--shard I/N splits one input over N workers, each with its own OUT and --resume.\n"
    "--provider-batch sends the calls through the provider's batch API instead (OpenAI,\n"
    "Anthropic, Gemini: half the price, results within a day), in rounds of re-asks, with\n"
    "its state in OUT.pbatch/ so --resume never submits or downloads a batch twice.\n"
    "Exit 0 all ok, 1 some record not ok, 2 bad usage or output error, 130 interrupted.";

std::vector<FlagSpec> BatchFlags() {
  std::vector<FlagSpec> spec = {
      {"output", true,
       "FILE: the results (JSONL; default stdout); -o FILE and --out FILE work too"},
      {"out", true, "FILE: same as --output"},
      {"concurrency", true, "K: calls in flight at most (default 32)"},
      {"ordered", false, "write results in input order (default: as they complete)"},
      {"reorder-window", true,
       "N: --ordered: records started past the oldest unwritten one (default 4 K)"},
      {"resume", false, "skip the records already in the output file; drop a torn last line"},
      {"overwrite", false, "empty an existing output file first (default: refuse)"},
      {"fsync", false, "fdatasync the output after each write (survives power loss, slower)"},
      {"schema", true, "FILE: default JSON Schema for lines without one (a file, or '{...}')"},
      {"schema-name", true, "NAME: default registry schema for lines without one"},
      {"schema-text", true, "TEXT: default schema description for lines without one"},
      {"max-loops", true, "N: default content-stage attempts, 1..10"},
      CallTimeoutFlag(),
      {"tenant", true, "ID: default tenant scope"},
      {"project", true, "ID: default project scope"},
      {"model", true,
       "REF: default model: an alias, PROVIDER/MODEL or PROVIDER (its default model)"},
      {"priority", true, "interactive|bulk: default priority (default bulk)"},
      {"evidence", true, "off|report|require: default evidence mode (docs/engine.md)"},
      {"shard", true, "I/N: only the records of shard I of N (by a hash of the id; docs/batch.md)"},
      {"stats", true, "FILE: at the end, the run's metrics per schema and provider as JSON"},
  };
  AddEngineFlags(spec);
  AddProviderBatchFlags(spec);
  AddCheckFlags(spec);
  return spec;
}

// Args parses long flags only; -o is the conventional short form of --output.
std::vector<std::string> TranslateShortFlags(const std::vector<std::string>& argv) {
  std::vector<std::string> out;
  for (const std::string& a : argv) {
    if (a == "-o") {
      out.push_back("--output");
    } else if (a.rfind("-o", 0) == 0 && a.size() > 2 && a[2] != '-') {
      out.push_back("--output=" + a.substr(2));
    } else {
      out.push_back(a);
    }
  }
  return out;
}

Status SchemaDefaultsFromArgs(const Args& args, batch::LineDefaults& d) {
  int schemas = args.has("schema") + args.has("schema-name") + args.has("schema-text");
  if (schemas > 1)
    return InvalidArgument("give at most one of --schema, --schema-name, --schema-text");
  if (args.has("schema")) {
    auto schema = batch::LoadDefaultSchema(args.get("schema"));
    if (!schema.ok()) return schema.status();
    d.schema = std::move(*schema);
  }
  // Flag text is raw bytes: checked once here rather than failing every line.
  for (const char* flag : {"schema-name", "schema-text", "tenant", "project", "model"}) {
    if (std::string e = Utf8Error(args.get(flag)); !e.empty())
      return InvalidArgument(std::string("--") + flag + ": " + e);
  }
  d.schema_name = args.get("schema-name");
  d.schema_text = args.get("schema-text");
  return Status::Ok();
}

Result<batch::LineDefaults> DefaultsFromArgs(const Args& args) {
  batch::LineDefaults d;
  STRUCTURE_RETURN_IF_ERROR(SchemaDefaultsFromArgs(args, d));
  if (args.has("max-loops")) {
    auto n = args.GetInt("max-loops", 3);
    if (!n.ok()) return n.status();
    if (*n < 1 || *n > 10)
      return InvalidArgument("--max-loops: must be 1..10 (was " + args.get("max-loops") + ")");
    d.max_loops = *n;
  }
  auto timeout = CallTimeoutFromArgs(args);
  if (!timeout.ok()) return timeout.status();
  d.call_timeout_ms = *timeout;
  STRUCTURE_RETURN_IF_ERROR(CheckIdFlags(args));
  d.tenant = args.get("tenant");
  d.project = args.get("project");
  d.model = args.get("model");
  d.priority = args.get("priority", "bulk");
  if (d.priority != "bulk" && d.priority != "interactive") {
    return InvalidArgument("--priority: must be interactive or bulk (was '" + d.priority + "')");
  }
  d.evidence = args.get("evidence");
  if (args.has("evidence") && !config::ParseEvidenceMode(d.evidence)) {
    return InvalidArgument("--evidence: must be off, report or require (was '" + d.evidence + "')");
  }
  STRUCTURE_RETURN_IF_ERROR(batch::CheckDefaults(d));
  return d;
}

// The job's files and how they are opened, from the positional IN and -o OUT.
Result<batch::FileOptions> FileOptionsFromArgs(const Args& args) {
  if (args.positional().size() > 1)
    return InvalidArgument("unexpected argument '" + args.positional()[1] + "'");
  if (args.has("output") && args.has("out")) return InvalidArgument("give one of --output, --out");
  batch::FileOptions f;
  f.out_path = args.has("output") ? args.get("output") : args.get("out");
  if ((args.has("output") || args.has("out")) && f.out_path.empty()) {
    return InvalidArgument("-o: the file name is empty: give a file, or - (or no -o) for stdout");
  }
  f.in_path = args.positional().empty() ? "-" : args.positional()[0];
  f.resume = args.has("resume");
  f.overwrite = args.has("overwrite");
  f.fsync = args.has("fsync");
  if (f.out_path == "-") f.out_path.clear();
  // "-o dir/" names a folder, whether or not it exists: say so, not the system's "Is a directory".
  if (!f.out_path.empty() && f.out_path.back() == '/') {
    return InvalidArgument("-o " + f.out_path +
                           ": ends with '/', so it names a folder; give a file, e.g. -o " +
                           f.out_path + "out.jsonl");
  }
  if (f.resume && f.out_path.empty())
    return InvalidArgument("--resume needs an output file (-o OUT.jsonl)");
  if (f.resume && f.overwrite) return InvalidArgument("give one of --resume, --overwrite");
  return f;
}

Status ConcurrencyFromArgs(const Args& args, batch::BatchOptions& options) {
  auto k = args.GetInt("concurrency", 32);
  if (!k.ok()) return k.status();
  if (*k < 1 || *k > 1000000)
    return InvalidArgument("--concurrency: must be 1..1000000 (was " + std::to_string(*k) + ")");
  options.concurrency = static_cast<uint64_t>(*k);
  options.ordered = args.has("ordered");
  auto window = args.GetInt("reorder-window", 0);
  if (!window.ok()) return window.status();
  if (*window < 0 || (*window > 0 && static_cast<uint64_t>(*window) < options.concurrency)) {
    return InvalidArgument("--reorder-window: must be at least --concurrency");
  }
  options.reorder_window = static_cast<uint64_t>(*window);
  return Status::Ok();
}

Result<batch::BatchOptions> OptionsFromArgs(const Args& args, const batch::FileOptions& files) {
  batch::BatchOptions options;
  STRUCTURE_RETURN_IF_ERROR(ConcurrencyFromArgs(args, options));
  if (args.has("shard")) {
    auto shard = batch::ParseShard(args.get("shard"));
    if (!shard.ok()) return shard.status();
    options.shard = *shard;
  }
  if (args.has("stats")) {
    STRUCTURE_RETURN_IF_ERROR(
        batch::CheckStatsPath(args.get("stats"), files.in_path, files.out_path));
  }
  auto defaults = DefaultsFromArgs(args);
  if (!defaults.ok()) return defaults.status();
  options.defaults = std::move(*defaults);
  return options;
}

// --schema-name must name a schema the registry has (in the --tenant/--project scope).
Status CheckDefaultSchemaName(Engine& engine, const batch::LineDefaults& d) {
  if (d.schema_name.empty()) return Status::Ok();
  auto found = EngineInternal::Schemas(engine).Find(d.schema_name, {d.tenant, d.project});
  if (found.ok()) return Status::Ok();
  return Status(found.status().code(),
                "--schema-name " + d.schema_name + ": " + found.status().message());
}

// The engine, started with SIGINT and SIGTERM blocked in its threads, so they reach this thread
// and wake a blocking read of stdin.
Result<std::unique_ptr<Engine>> StartEngine(const Args& args, EngineOptions checks) {
  auto engine_options = EngineOptionsFromArgs(args);
  if (!engine_options.ok()) return engine_options.status();
  engine_options->checks = std::move(checks.checks);
  sigset_t stops;
  sigemptyset(&stops);
  sigaddset(&stops, SIGINT);
  sigaddset(&stops, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stops, nullptr);
  auto created = Engine::Create(std::move(*engine_options));
  pthread_sigmask(SIG_UNBLOCK, &stops, nullptr);
  return created;
}

// The live path: the batch runner over Engine::Submit; prints the summary.
int RunLive(const Args& args, batch::BatchOptions options, const batch::FileOptions& paths,
            batch::JobFiles& files, std::unique_ptr<Engine>& engine,
            const batch::InFlightCap& cap) {
  std::shared_ptr<const pipeline::CallStats> call_stats = EngineInternal::CallStats(*engine);
  Engine* raw_engine = engine.get();
  options.cancel = [&engine] { engine.reset(); };
  batch::BatchRunner runner(
      options,
      [raw_engine](pipeline::StructureRequest request,
                   std::function<void(pipeline::StructureResult)> done) {
        raw_engine->Submit(std::move(request), std::move(done));
      },
      &*files.journal, paths.resume ? &files.scan : nullptr);
  batch::BatchReport report = runner.Run(files.in);
  engine.reset();
  RestoreInterrupts();
  std::fprintf(stderr, "%s\n", batch::LiveSummary(report, cap, files.resumable).c_str());
  if (paths.resume && paths.in_path == "-") {
    std::string warning = batch::ForeignResultsWarning(report, files.scan, paths.out_path);
    if (!warning.empty()) std::fprintf(stderr, "structure batch: %s\n", warning.c_str());
  }
  if (args.has("stats")) {
    Status written = batch::WriteStatsFile(args.get("stats"), report, call_stats->Snapshot());
    if (!written.ok()) return Fail(written.message());
  }
  if (!report.io_error.ok()) return Fail(report.io_error.message());
  return batch::ExitStatus(report);
}

int RunBatch(const std::vector<std::string>& raw) {
  int exit_code = 0;
  auto args = ParseOrHelp("batch", TranslateShortFlags(raw), BatchFlags(), kUsageLine, kDescription,
                          exit_code);
  if (!args) return exit_code;
  auto paths = FileOptionsFromArgs(*args);
  if (!paths.ok()) return Fail(paths.status().message());
  Status provider_batch =
      CheckProviderBatchFlags(*args, paths->in_path, paths->out_path, paths->resume);
  if (!provider_batch.ok()) return Fail(provider_batch.message());
  auto options = OptionsFromArgs(*args, *paths);
  if (!options.ok()) return Fail(options.status().message());
  EngineOptions checks;  // --check is checked before any file is touched
  if (Status st = ApplyCheckFlags(*args, checks); !st.ok()) return Fail(st.message());

  paths->shard = options->shard;
  auto files = batch::OpenJobFiles(*paths);
  if (!files.ok()) return Fail(files.status().message());
  for (const std::string& note : files->notes)
    std::fprintf(stderr, "structure batch: %s\n", note.c_str());
  auto engine = StartEngine(*args, std::move(checks));
  if (!engine.ok()) return Fail(engine.status().message());
  Status schema_name = CheckDefaultSchemaName(**engine, options->defaults);
  if (!schema_name.ok()) return Fail(schema_name.message());
  // --model as every default line would use it: wrong, it is a usage error, not N errors.
  const batch::LineDefaults& d = options->defaults;
  if (Status model = (*engine)->CheckModel(d.model, d.tenant, d.project); !model.ok()) {
    return Fail((d.model.empty() ? "" : "--model " + d.model + ": ") + model.message());
  }
  batch::InFlightCap cap = batch::CapOf(EngineInternal::Config(**engine), options->concurrency,
                                        args->get("provider"), options->defaults.model);
  if (cap.capped) std::fprintf(stderr, "structure batch: %s\n", batch::CapWarning(cap).c_str());

  options->progress = isatty(STDERR_FILENO) == 1;
  std::error_code regular_error;
  if (options->progress && paths->in_path != "-" &&
      std::filesystem::is_regular_file(paths->in_path, regular_error)) {
    auto total = batch::CountRecords(paths->in_path, options->shard);
    if (total.ok()) options->total = *total;
  }
  options->interrupts = &g_interrupts;
  CatchInterrupts();
  if (!args->has("provider-batch")) return RunLive(*args, *options, *paths, *files, *engine, cap);
  g_provider_batch = true;
  int rc = RunProviderBatchCommand(*args, *options, paths->in_path, paths->out_path, **engine,
                                   *files->journal, paths->resume ? &files->scan : nullptr,
                                   &g_interrupts);
  engine->reset();
  RestoreInterrupts();
  return rc;
}

}  // namespace

STRUCTURE_COMMAND("batch", "run one structure call per JSONL line, durably, K in flight", RunBatch);

}  // namespace structure::apps
