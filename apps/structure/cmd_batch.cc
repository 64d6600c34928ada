// `structure batch`: JSONL requests in, JSONL results out, K calls in flight, durable and
// resumable (docs/batch.md). Exit 0 when every record ended ok, 1 when any did not, 2 for bad
// usage or an unwritable output, 130 when interrupted (input not read to the end, or calls
// cancelled).
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>

#include "apps/structure/check_flags.h"
#include "apps/structure/command.h"
#include "apps/structure/engine_flags.h"
#include "apps/structure/provider_batch_command.h"
#include "base/utf8.h"
#include "batch/batch_files.h"
#include "batch/batch_runner.h"
#include "batch/stats_file.h"
#include "config/settings.h"
#include "pipeline/validator/validator.h"
#include "registry/schema_registry.h"

namespace structure::apps {
namespace {

std::atomic<int> g_interrupts{0};
std::atomic<bool> g_provider_batch{false};

void OnInterrupt(int) {
  int n = g_interrupts.fetch_add(1) + 1;
  const char* msg = g_provider_batch.load() ? "\nstructure batch: stopping; submitted batches keep "
                                              "running at the provider (--resume collects them)\n"
                    : n == 1 ? "\nstructure batch: stopping: waiting for the calls in flight "
                               "(Ctrl-C again cancels them)\n"
                             : "\nstructure batch: cancelling the calls in flight\n";
  ssize_t ignored = ::write(STDERR_FILENO, msg, std::char_traits<char>::length(msg));
  (void)ignored;
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "structure batch: %s\n", message.c_str());
  return 2;
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

Result<batch::LineDefaults> DefaultsFromArgs(const Args& args) {
  batch::LineDefaults d;
  int schemas = args.has("schema") + args.has("schema-name") + args.has("schema-text");
  if (schemas > 1)
    return InvalidArgument("give at most one of --schema, --schema-name, --schema-text");
  if (args.has("schema")) {
    auto text = ReadFile(args.get("schema"));
    if (!text.ok()) return text.status();
    ParseOptions po;
    po.source = args.get("schema");
    auto schema = ParseJson(*text, po);
    if (!schema.ok()) return schema.status();
    Status checked = pipeline::CheckInlineSchema(*schema);
    if (!checked.ok())
      return InvalidArgument("--schema " + args.get("schema") + ": " + checked.message());
    // A schema that cannot compile would fail every line: say so once, before any call.
    auto compiled = pipeline::CompileSchema(*schema);
    if (!compiled.ok())
      return InvalidArgument("--schema " + args.get("schema") + ": " + compiled.status().message());
    d.schema = std::make_shared<const Json>(std::move(*schema));
  }
  // Flag text is raw bytes: checked once here rather than failing every line.
  for (const char* flag : {"schema-name", "schema-text", "tenant", "project", "model"}) {
    if (std::string e = Utf8Error(args.get(flag)); !e.empty())
      return InvalidArgument(std::string("--") + flag + ": " + e);
  }
  d.schema_name = args.get("schema-name");
  d.schema_text = args.get("schema-text");
  if (args.has("max-loops")) {
    auto n = args.GetInt("max-loops", 3);
    if (!n.ok()) return n.status();
    if (*n < 1 || *n > 10)
      return InvalidArgument("--max-loops: must be 1..10 (was " + args.get("max-loops") + ")");
    d.max_loops = *n;
  }
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
  // The defaults on a line of their own: what is wrong with them is a usage error now, not an
  // error on every line later.
  batch::LineDefaults probe_defaults = d;
  if (!probe_defaults.schema && d.schema_name.empty() && d.schema_text.empty()) {
    probe_defaults.schema = std::make_shared<const Json>(Json::MakeObject());
  }
  batch::BatchLine probe = batch::ParseBatchLine(R"({"prompt": "-"})", 0, probe_defaults);
  if (!probe.error.ok()) {
    std::string why = probe.error.message();
    if (why.rfind("line 0: ", 0) == 0) why = why.substr(8);
    return InvalidArgument("the default flags: " + why);
  }
  return d;
}

// --schema-name must name a schema the registry has (in the --tenant/--project scope).
Status CheckDefaultSchemaName(Engine& engine, const batch::LineDefaults& d) {
  if (d.schema_name.empty()) return Status::Ok();
  auto found = engine.schemas().Find(d.schema_name, {d.tenant, d.project});
  if (found.ok()) return Status::Ok();
  return Status(found.status().code(),
                "--schema-name " + d.schema_name + ": " + found.status().message());
}

// The provider every default line goes to, and whether its max_concurrency caps --concurrency.
struct InFlightCap {
  bool capped = false;
  int limit = 0;
  std::string key;  // providers.NAME.limits.max_concurrency
};

InFlightCap CapOf(const config::EngineConfig& config, uint64_t concurrency,
                  const std::string& provider, const std::string& model) {
  InFlightCap cap;
  std::string name = provider;
  if (name.empty()) {
    auto target = config::ResolveModel(config, model.empty() ? config.settings.model : model);
    if (!target.ok()) return cap;
    name = target->provider;
  }
  auto it = config.providers.find(name);
  if (it == config.providers.end()) return cap;
  cap.limit = it->second.limits.max_concurrency;
  cap.key = "providers." + name + ".limits.max_concurrency";
  cap.capped = concurrency > static_cast<uint64_t>(cap.limit);
  return cap;
}

// Records in a regular input file (non-blank lines of this shard), for the progress ETA.
std::optional<uint64_t> CountRecords(const std::string& path, const batch::Shard& shard) {
  auto text = ReadFile(path);
  if (!text.ok()) return std::nullopt;
  uint64_t n = 0;
  uint64_t line_no = 0;
  size_t pos = 0;
  while (pos < text->size()) {
    size_t nl = text->find('\n', pos);
    if (nl == std::string::npos) nl = text->size();
    std::string_view line = std::string_view(*text).substr(pos, nl - pos);
    ++line_no;
    pos = nl + 1;
    if (batch::IsBlankLine(line)) continue;
    if (shard.count > 1) {
      batch::BatchLine parsed = batch::ParseBatchLine(line, line_no, {});
      if (batch::ShardOf(batch::ShardKey(parsed.id, line_no), shard.count) != shard.index) continue;
    }
    ++n;
  }
  return n;
}

int RunBatch(const std::vector<std::string>& raw) {
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
      {"schema", true, "FILE: default inline JSON Schema for lines without one"},
      {"schema-name", true, "NAME: default registry schema for lines without one"},
      {"schema-text", true, "TEXT: default schema description for lines without one"},
      {"max-loops", true, "N: default content-stage attempts, 1..10"},
      {"tenant", true, "ID: default tenant scope"},
      {"project", true, "ID: default project scope"},
      {"model", true, "REF: default model alias or provider/model"},
      {"priority", true, "interactive|bulk: default priority (default bulk)"},
      {"evidence", true, "off|report|require: default evidence mode (docs/engine.md)"},
      {"shard", true, "I/N: only the records of shard I of N (by a hash of the id; docs/batch.md)"},
      {"stats", true, "FILE: at the end, the run's metrics per schema and provider as JSON"},
  };
  AddEngineFlags(spec);
  AddProviderBatchFlags(spec);
  AddCheckFlags(spec);
  int exit_code = 0;
  auto args = ParseOrHelp(
      "batch", TranslateShortFlags(raw), spec,
      "structure batch [IN.jsonl] [-o OUT.jsonl] [--concurrency K] [--ordered] [--resume] [flags]",
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
      "Exit 0 all ok, 1 some record not ok, 2 bad usage or output error, 130 interrupted.",
      exit_code);
  if (!args) return exit_code;
  if (args->positional().size() > 1)
    return Fail("unexpected argument '" + args->positional()[1] + "'");
  if (args->has("output") && args->has("out")) return Fail("give one of --output, --out");
  std::string out_path = args->has("output") ? args->get("output") : args->get("out");
  std::string in_path = args->positional().empty() ? "-" : args->positional()[0];
  bool resume = args->has("resume");
  if (out_path == "-") out_path.clear();
  if (resume && out_path.empty()) return Fail("--resume needs an output file (-o OUT.jsonl)");
  if (resume && args->has("overwrite")) return Fail("give one of --resume, --overwrite");
  Status provider_batch = CheckProviderBatchFlags(*args, in_path, out_path, resume);
  if (!provider_batch.ok()) return Fail(provider_batch.message());

  batch::BatchOptions options;
  auto k = args->GetInt("concurrency", 32);
  if (!k.ok()) return Fail(k.status().message());
  if (*k < 1 || *k > 1000000)
    return Fail("--concurrency: must be 1..1000000 (was " + std::to_string(*k) + ")");
  options.concurrency = static_cast<uint64_t>(*k);
  options.ordered = args->has("ordered");
  auto window = args->GetInt("reorder-window", 0);
  if (!window.ok()) return Fail(window.status().message());
  if (*window < 0 || (*window > 0 && static_cast<uint64_t>(*window) < options.concurrency)) {
    return Fail("--reorder-window: must be at least --concurrency");
  }
  options.reorder_window = static_cast<uint64_t>(*window);
  if (args->has("shard")) {
    auto shard = batch::ParseShard(args->get("shard"));
    if (!shard.ok()) return Fail(shard.status().message());
    options.shard = *shard;
  }
  if (args->has("stats")) {
    Status stats_ok = batch::CheckStatsPath(args->get("stats"), in_path, out_path);
    if (!stats_ok.ok()) return Fail(stats_ok.message());
  }
  auto defaults = DefaultsFromArgs(*args);
  if (!defaults.ok()) return Fail(defaults.status().message());
  options.defaults = std::move(*defaults);
  EngineOptions checks;  // --check is checked before any file is touched
  if (Status st = ApplyCheckFlags(*args, checks); !st.ok()) return Fail(st.message());

  batch::FileOptions file_options{in_path, out_path, resume, args->has("overwrite"),
                                  args->has("fsync")};
  auto files = batch::OpenJobFiles(file_options);
  if (!files.ok()) return Fail(files.status().message());
  for (const std::string& note : files->notes)
    std::fprintf(stderr, "structure batch: %s\n", note.c_str());
  std::FILE* in = files->in;
  batch::JournalScan& scan = files->scan;
  std::optional<batch::JournalWriter>& journal = files->journal;

  auto engine_options = EngineOptionsFromArgs(*args);
  if (!engine_options.ok()) return Fail(engine_options.status().message());
  engine_options->checks = std::move(checks.checks);
  // Engine threads start with SIGINT blocked, so the signal reaches this thread and wakes a
  // blocking read of stdin.
  sigset_t sigint;
  sigemptyset(&sigint);
  sigaddset(&sigint, SIGINT);
  pthread_sigmask(SIG_BLOCK, &sigint, nullptr);
  auto created = Engine::Create(std::move(*engine_options));
  pthread_sigmask(SIG_UNBLOCK, &sigint, nullptr);
  if (!created.ok()) return Fail(created.status().message());
  std::unique_ptr<Engine> engine = std::move(*created);
  Status schema_name = CheckDefaultSchemaName(*engine, options.defaults);
  if (!schema_name.ok()) return Fail(schema_name.message());
  InFlightCap cap =
      CapOf(engine->config(), options.concurrency, args->get("provider"), options.defaults.model);
  if (cap.capped) {
    std::fprintf(
        stderr,
        "structure batch: --concurrency %llu is above %s = %d: at most %d calls are on the "
        "wire at once (raise it in the config file to go higher)\n",
        static_cast<unsigned long long>(options.concurrency), cap.key.c_str(), cap.limit,
        cap.limit);
  }
  std::shared_ptr<const pipeline::CallStats> call_stats = engine->call_stats();

  options.progress = isatty(STDERR_FILENO) == 1;
  if (options.progress && in_path != "-") options.total = CountRecords(in_path, options.shard);
  options.interrupts = &g_interrupts;
  options.cancel = [&engine] { engine.reset(); };

  struct sigaction sa = {};
  sa.sa_handler = OnInterrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking read of stdin must wake up
  sigaction(SIGINT, &sa, nullptr);
  signal(SIGPIPE, SIG_IGN);  // a closed stdout becomes a write error, reported

  if (args->has("provider-batch")) {
    g_provider_batch = true;
    int rc = RunProviderBatchCommand(*args, options, in_path, out_path, *engine, *journal,
                                     resume ? &scan : nullptr, &g_interrupts);
    engine.reset();
    signal(SIGINT, SIG_DFL);
    return rc;
  }

  Engine* raw_engine = engine.get();
  batch::BatchRunner runner(
      options,
      [raw_engine](pipeline::StructureRequest request,
                   std::function<void(pipeline::StructureResult)> done) {
        raw_engine->Submit(std::move(request), std::move(done));
      },
      &*journal, resume ? &scan : nullptr);
  batch::BatchReport report = runner.Run(in);
  engine.reset();
  signal(SIGINT, SIG_DFL);

  batch::BatchCounts all = report.all();
  double rate =
      report.elapsed_s > 0 ? static_cast<double>(report.run.total()) / report.elapsed_s : 0;
  std::string summary =
      batch::FormatSummary(all, report.resumed.total(), report.elapsed_s, rate, report.interrupted);
  summary +=
      ", at most " + std::to_string(cap.capped ? cap.limit : options.concurrency) + " in flight";
  if (cap.capped) summary += " (" + cap.key + ")";
  std::fprintf(stderr, "%s\n", summary.c_str());
  if (resume && in_path == "-" && report.resumed_seen < scan.records && !report.interrupted) {
    // A file input was checked at the start; stdin can only be checked now.
    std::fprintf(stderr,
                 "structure batch: warning: %llu results in %s match no input record: it was "
                 "written from another input (use a new -o FILE, or --overwrite)\n",
                 static_cast<unsigned long long>(scan.records - report.resumed_seen),
                 out_path.c_str());
  }
  if (args->has("stats")) {
    Status written = batch::WriteStatsFile(args->get("stats"), report, call_stats->Snapshot());
    if (!written.ok()) return Fail(written.message());
  }
  if (!report.io_error.ok()) return Fail(report.io_error.message());
  if (report.interrupted) return 130;
  return all.all_ok() ? 0 : 1;
}

}  // namespace

STRUCTURE_COMMAND("batch", "run one structure call per JSONL line, durably, K in flight", RunBatch);

}  // namespace structure::apps
