// `structure run`: one structure call; prints the result JSON.
// Exit 0 ok, 3 need-more-input, 4 stale, 1 error, 2 bad usage, 130 interrupted (Ctrl-C cancels
// the call at once).
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>

#include "apps/structure/check_flags.h"
#include "apps/structure/command.h"
#include "apps/structure/engine_flags.h"
#include "apps/structure/run_dry.h"
#include "base/base64.h"
#include "base/error_codes.h"
#include "base/json_arg.h"
#include "base/read_file.h"
#include "base/utf8.h"
#include "config/settings.h"

namespace structure::apps {
namespace {

int ExitCode(const pipeline::StructureResult& r) {
  switch (r.status) {
    case pipeline::Outcome::kOk:
      return 0;
    case pipeline::Outcome::kNeedMoreInput:
      return 3;
    case pipeline::Outcome::kStale:
      return 4;
    case pipeline::Outcome::kError:
      return ErrorCodeFactsOf(r.error_code).exit_code;
  }
  return 1;
}

int Fail(const std::string& message) {
  std::fprintf(stderr, "structure run: %s\n", message.c_str());
  return 2;
}

// A request error names the field the flag filled ("maxLoops: must be ..."): the user typed the
// flag, so the message names it.
std::string AsFlags(const std::string& message) {
  static const std::pair<const char*, const char*> kFlags[] = {
      {"maxLoops", "--max-loops"},
      {"schemaText", "--schema-text"},
      {"schemaName", "--schema-name"},
      {"callTimeoutMs", "--call-timeout-ms"},
      {"maxInputTokensPerCall", "--max-input-tokens"},
      {"tenant", "--tenant"},
      {"project", "--project"},
      {"model", "--model"},
      {"prompt", "--prompt"},
      {"filesAs", "--files-as"},
      {"files", "--file"}};
  for (const auto& [field, flag] : kFlags) {
    std::string prefix = std::string(field) + ":";
    if (message.rfind(prefix, 0) == 0) return flag + message.substr(std::strlen(field));
  }
  return message;
}

// The --file flags as a request's "files": each file read whole (bounded by the per-file limit;
// a directory, a FIFO no process writes or an empty file is an error naming it), named by its
// base name.
Result<Json> ReadFileFlags(const std::vector<std::string>& paths) {
  Json files = Json::MakeArray();
  FileLimits limits;
  for (const std::string& path : paths) {
    Result<std::string> bytes = ReadFile(path, limits.max_file_bytes, "the limit for one file");
    if (!bytes.ok()) return InvalidArgument("--file " + bytes.status().message());
    if (bytes->empty())
      return InvalidArgument("--file " + path +
                             " is empty: attach a PDF, an image or a "
                             "text file");
    std::string name = path.substr(path.find_last_of('/') + 1);
    if (Utf8ErrorAt(name) != std::string_view::npos)
      name = "file" + std::to_string(files.size() + 1);
    files.push_back(Json(Json::Object{{"name", name}, {"data", Base64Encode(*bytes)}}));
  }
  return files;
}

int RunRun(const std::vector<std::string>& argv) {
  std::vector<FlagSpec> spec = {
      {"prompt", true, "TEXT: the free text to structure"},
      {"prompt-file", true, "FILE: read the prompt from a file (- for stdin)"},
      {"file", true,
       "PATH: attach a file (PDF, PNG, JPEG, WebP, GIF or text; repeatable); --prompt is then "
       "optional",
       true},
      {"files-as", true,
       "native|text: send PDFs as they are or as their text layer (default "
       "native)"},
      {"schema", true, "FILE: a JSON Schema file, or the schema itself ('{...}')"},
      {"schema-name", true, "NAME: a registry schema (project -> tenant -> bundled)"},
      {"schema-text", true, "TEXT: describe the schema in words (built by the schema builder)"},
      {"max-loops", true, "N: content-stage attempts, 1..10 (default 3)"},
      {"max-input-tokens", true,
       "N: split a longer prompt into parts of at most N tokens each, asked on their own and "
       "merged (default: only the model's context window splits it)"},
      CallTimeoutFlag(),
      {"tenant", true, "ID: tenant scope"},
      {"project", true, "ID: project scope (needs --tenant)"},
      {"model", true,
       "REF: an alias, PROVIDER/MODEL or PROVIDER (its default model); default structure.model"},
      {"final-tool", false, "answer through a submit tool (agent-loop style)"},
      {"array", false, "the schema is {type: array, items: T}; keep complete records if truncated"},
      {"evidence", true,
       "off|report|require: tie each value to a quote of the prompt (default off)"},
      {"dry-run", false,
       "print the plan (the schema's mode, the input's parts and token estimates, the calls) "
       "and make no content call"},
  };
  AddEngineFlags(spec);
  AddCheckFlags(spec);
  for (const std::string& a : argv) {
    if (a == "-o" || a.rfind("--output", 0) == 0 || a == "--out" || a.rfind("--out=", 0) == 0) {
      return Fail(a.substr(0, a.find('=')) +
                  ": run prints its result on stdout and has no output flag: to keep it in a "
                  "file, redirect stdout (structure run ... > result.json)");
    }
  }
  int exit_code = 0;
  auto args = ParseOrHelp(
      "run", argv, spec,
      "structure run (--prompt TEXT | --prompt-file F | --file PATH...) (--schema FILE | "
      "--schema-name NAME | "
      "--schema-text TEXT) [flags]",
      "Turns the prompt into one JSON object valid against the schema and prints the result:\n"
      "{\"status\": \"ok\" | \"need-more-input\" | \"stale\" | \"error\", \"data\" | \"need\" | "
      "\"errors\", ...}.\nExit 0 ok, 3 need-more-input, 4 stale, 1 error, 2 bad usage, 130 "
      "interrupted. Without "
      "--config the\nbuilt-in simulator provider at 127.0.0.1:8089 is called (start it with "
      "`structure sim`).",
      exit_code);
  if (!args) return exit_code;
  if (!args->positional().empty()) {
    return Fail("unexpected argument '" + args->positional()[0] +
                "': run takes its text from --prompt TEXT or --prompt-file FILE (structure help "
                "run lists the flags)");
  }

  Json body = Json::MakeObject();
  if (args->has("prompt") && args->has("prompt-file"))
    return Fail("give only one of --prompt TEXT and --prompt-file FILE");
  if (!args->has("prompt") && !args->has("prompt-file") && !args->has("file"))
    return Fail(
        "give the text to structure with --prompt TEXT or --prompt-file FILE (--prompt-file - "
        "reads stdin), or attach a file with --file PATH");
  if (args->has("file")) {
    auto files = ReadFileFlags(args->all("file"));
    if (!files.ok()) return Fail(files.status().message());
    body.set("files", std::move(*files));
  }
  if (args->has("files-as")) body.set("filesAs", args->get("files-as"));
  // Raw text is checked here, so the error names the flag or file it came from.
  if (!args->has("prompt") && !args->has("prompt-file")) {
    // Only files: they are the input.
  } else if (args->has("prompt")) {
    if (std::string e = Utf8Error(args->get("prompt")); !e.empty()) return Fail("--prompt: " + e);
    body.set("prompt", args->get("prompt"));
  } else {
    std::string path = args->get("prompt-file");
    if (path == "-" && isatty(STDIN_FILENO) == 1)
      std::fprintf(stderr,
                   "structure run: reading the prompt from the terminal: end it with Ctrl-D\n");
    Result<std::string> text =
        ReadFile(path == "-" ? "/dev/stdin" : path, kMaxPromptBytes, "the prompt limit");
    if (!text.ok()) return Fail("--prompt-file: " + text.status().message());
    std::string shown = path == "-" ? std::string("- (stdin)") : path;
    if (std::string e = Utf8Error(*text); !e.empty())
      return Fail("--prompt-file " + shown + ": " + e);
    if (text->empty())
      return Fail("--prompt-file " + shown + " is empty: give the text to structure");
    body.set("prompt", *text);
  }
  int schemas = args->has("schema") + args->has("schema-name") + args->has("schema-text");
  if (schemas != 1) {
    return Fail(
        "give exactly one of --schema FILE (a JSON Schema), --schema-name NAME (a "
        "registered schema) or --schema-text TEXT (the fields in words)");
  }
  if (args->has("schema")) {
    auto arg = ReadJsonArg(args->get("schema"), "--schema", kMaxSchemaBytes, "the schema limit");
    if (!arg.ok()) return Fail("--schema: " + arg.status().message());
    ParseOptions po;
    po.source = arg->source;
    auto schema = ParseJson(arg->text, po);
    if (!schema.ok()) return Fail(schema.status().message());
    body.set("schema", *schema);
  } else if (args->has("schema-name")) {
    body.set("schemaName", args->get("schema-name"));
  } else {
    if (std::string e = Utf8Error(args->get("schema-text")); !e.empty())
      return Fail("--schema-text: " + e);
    body.set("schemaText", args->get("schema-text"));
  }
  if (args->has("max-loops")) {
    auto n = args->GetInt("max-loops", 3);
    if (!n.ok()) return Fail(n.status().message());
    body.set("maxLoops", static_cast<int64_t>(*n));
  }
  if (args->has("max-input-tokens")) {
    auto n = args->GetInt("max-input-tokens", 0);
    if (!n.ok()) return Fail(n.status().message());
    body.set("maxInputTokensPerCall", static_cast<int64_t>(*n));
  }
  auto timeout = CallTimeoutFromArgs(*args);
  if (!timeout.ok()) return Fail(timeout.status().message());
  if (*timeout) body.set("callTimeoutMs", static_cast<int64_t>(**timeout));
  if (Status scope = CheckIdFlags(*args); !scope.ok()) return Fail(scope.message());
  for (const char* key : {"tenant", "project", "model"}) {
    if (args->has(key)) body.set(key, args->get(key));
  }
  if (args->has("final-tool")) body.set("finalTool", true);
  if (args->has("array")) body.set("arrayMode", true);
  if (args->has("evidence")) {
    if (!config::ParseEvidenceMode(args->get("evidence"))) {
      return Fail("--evidence: must be off, report or require (was '" + args->get("evidence") +
                  "')");
    }
    body.set("evidence", args->get("evidence"));
  }
  auto request = pipeline::ParseRequest(body);
  if (!request.ok()) return Fail(AsFlags(request.status().message()));

  auto options = EngineOptionsFromArgs(*args);
  if (!options.ok()) return Fail(options.status().message());
  if (Status st = ApplyCheckFlags(*args, *options); !st.ok()) return Fail(st.message());
  // SIGINT and SIGTERM are blocked in every thread (the engine's inherit the mask) and taken
  // here, with the result's arrival (SIGUSR1 from the callback): the call's own timeouts and
  // retries can take minutes, Ctrl-C must not.
  sigset_t wake;
  sigemptyset(&wake);
  for (int sig : {SIGINT, SIGTERM, SIGUSR1}) sigaddset(&wake, sig);
  pthread_sigmask(SIG_BLOCK, &wake, nullptr);
  auto engine = Engine::Create(std::move(*options));
  if (!engine.ok()) return Fail(engine.status().message());
  // A --model that names nothing is a usage error, as in batch, not a paid call's result.
  if (Status model =
          (*engine)->CheckModel(args->get("model"), args->get("tenant"), args->get("project"));
      !model.ok()) {
    return Fail((args->has("model") ? "--model " + args->get("model") + ": " : "") +
                model.message());
  }
  if (args->has("dry-run")) return PrintRunPlan(**engine, std::move(*request));
  auto result = std::make_shared<std::optional<pipeline::StructureResult>>();
  auto mu = std::make_shared<std::mutex>();
  pthread_t self = pthread_self();
  (*engine)->Submit(std::move(*request), [result, mu, self](pipeline::StructureResult r) {
    std::lock_guard<std::mutex> lock(*mu);
    *result = std::move(r);
    pthread_kill(self, SIGUSR1);
  });
  int sig = 0;
  while (sigwait(&wake, &sig) == 0 && sig == SIGUSR1) {
    std::lock_guard<std::mutex> lock(*mu);
    if (*result) break;
  }
  bool interrupted = sig != SIGUSR1;
  if (interrupted) {
    std::fprintf(stderr, "structure run: interrupted: cancelling the call\n");
    engine->reset();  // answers the call "cancelled"
  }
  // Printing may block (a pipe or FIFO whose reader does not read): Ctrl-C or SIGTERM ends it.
  sigset_t stops;
  sigemptyset(&stops);
  for (int s : {SIGINT, SIGTERM}) sigaddset(&stops, s);
  pthread_sigmask(SIG_UNBLOCK, &stops, nullptr);
  std::lock_guard<std::mutex> lock(*mu);
  if (*result) std::printf("%s\n", ToJson(pipeline::ResultToJson(**result), true).c_str());
  if (interrupted) return 130;
  return *result ? ExitCode(**result) : 1;
}

}  // namespace

STRUCTURE_COMMAND("run", "structure one prompt against a schema and print the result", RunRun);

}  // namespace structure::apps
