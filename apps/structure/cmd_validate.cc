// `structure validate --schema FILE`: validates JSON instances read from stdin (one per line)
// and writes one result line per instance. Exit 0 all valid, 1 any invalid, 2 bad schema/usage.
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>

#include "apps/structure/args.h"
#include "apps/structure/command.h"
#include "base/json_arg.h"
#include "base/read_file.h"
#include "pipeline/schema_stage.h"
#include "pipeline/validator/schema_refs.h"
#include "pipeline/validator/validate_lines.h"
#include "pipeline/validator/validator.h"

namespace structure::apps {
namespace {

int Usage(const std::string& message) {
  std::fprintf(stderr, "structure validate: %s\n", message.c_str());
  return 2;
}

std::optional<pipeline::Draft> ParseDraft(const std::string& v) {
  using pipeline::Draft;
  if (v == "2020-12") return Draft::k2020_12;
  if (v == "2019-09") return Draft::k2019_09;
  if (v == "7") return Draft::kDraft7;
  if (v == "6") return Draft::kDraft6;
  if (v == "4") return Draft::kDraft4;
  return std::nullopt;
}

// The defaults keep a mistaken input (/dev/zero, a binary file) from taking the machine's
// memory; the flags raise them for a schema or an instance that is really that large.
constexpr size_t kDefaultMaxLineBytes = size_t{64} << 20;
constexpr size_t kMaxByteLimit = size_t{1} << 30;
constexpr const char* kSchemaLimitName = "the schema limit, --max-schema-bytes";

// --max-schema-bytes N and --max-line-bytes N: 1..kMaxByteLimit.
Result<size_t> ByteLimit(const Args& args, const std::string& flag, size_t fallback) {
  if (!args.has(flag)) return fallback;
  const std::string& v = args.get(flag);
  char* end = nullptr;
  errno = 0;
  unsigned long long n = std::strtoull(v.c_str(), &end, 10);
  if (v.empty() || v[0] < '0' || v[0] > '9' || *end != '\0' || errno != 0 || n < 1 ||
      n > kMaxByteLimit) {
    return InvalidArgument("--" + flag + " needs a number of bytes 1.." +
                           std::to_string(kMaxByteLimit) + " (was '" + v + "')");
  }
  return static_cast<size_t>(n);
}

int RunValidate(const std::vector<std::string>& args) {
  const std::vector<FlagSpec> spec = {
      {"schema", true,
       "FILE: the JSON Schema, a file or '{...}' (its $schema names the draft; else --draft)"},
      {"draft", true,
       "2020-12|2019-09|7|6|4: the draft of a schema without $schema (default 2020-12)"},
      {"ref", true,
       "PATH or URL=PATH (repeatable): schemas that $refs name, a file or folder (by $id, or at "
       "URL)",
       true},
      {"no-format", false, "treat `format` as an annotation instead of an assertion"},
      {"first-error", false, "report only the first error of each instance (faster)"},
      {"max-errors", true,
       "N: at most N errors per instance, then a final \"... and more\" (default 100, 0 = all)"},
      {"strict", false,
       "also reject keywords that have no effect (a 2020-12 items array), not only broken ones"},
      {"allow-unresolved-refs", false,
       "accept a $ref that cannot be resolved as any value (with a warning)"},
      {"max-schema-bytes", true,
       "N: the largest --schema and --ref file read (default 1048576, at most 1073741824)"},
      {"max-line-bytes", true,
       "N: the longest instance line; a longer one is reported and skipped (default 67108864, "
       "at most 1073741824)"}};
  int exit_code = 0;
  auto parsed = ParseOrHelp(
      "validate", args, spec, "structure validate --schema FILE [--ref PATH]... < instances.jsonl",
      "Validates one JSON value per stdin line against the schema and prints one line per\n"
      "value: {\"valid\":true} or {\"valid\":false,\"errors\":[...]}. A line that is not JSON\n"
      "is reported as {\"valid\":false,\"error\":\"line N, column C (input byte offset B): "
      "...\",\n\"line\":N,\"column\":C,\"byte\":B}. Blank lines are skipped (stderr says "
      "which). Exit 0 when every\nvalue is valid, 1 when any is not, 2 for a bad schema (one the "
      "engine would refuse too) or usage.",
      exit_code);
  if (!parsed) return exit_code;
  if (!parsed->positional().empty()) {
    return Usage("unexpected argument '" + parsed->positional()[0] +
                 "' (instances come from stdin)");
  }
  if (!parsed->has("schema")) return Usage("--schema FILE is required (instances come from stdin)");
  pipeline::ValidatorOptions options;
  if (parsed->has("draft")) {
    auto draft = ParseDraft(parsed->get("draft"));
    if (!draft)
      return Usage("--draft needs one of 2020-12, 2019-09, 7, 6, 4 (was '" + parsed->get("draft") +
                   "')");
    options.default_draft = *draft;
  }
  auto max_schema = ByteLimit(*parsed, "max-schema-bytes", kMaxSchemaBytes);
  if (!max_schema.ok()) return Usage(max_schema.status().message());
  auto max_line = ByteLimit(*parsed, "max-line-bytes", kDefaultMaxLineBytes);
  if (!max_line.ok()) return Usage(max_line.status().message());
  if (Status refs = pipeline::LoadSchemaRefs(parsed->all("ref"), &options.resources, *max_schema,
                                             kSchemaLimitName);
      !refs.ok()) {
    return Usage(refs.message());
  }
  if (parsed->has("max-errors")) {
    const std::string& v = parsed->get("max-errors");
    char* end = nullptr;
    errno = 0;
    unsigned long long n = std::strtoull(v.c_str(), &end, 10);
    if (v.empty() || v[0] == '-' || *end != '\0' || errno != 0 || n > 1000000000ULL) {
      return Usage("--max-errors needs a whole number 0..1000000000 (was '" + v + "')");
    }
    options.max_errors = static_cast<size_t>(n);
  }
  auto arg = ReadJsonArg(parsed->get("schema"), "--schema", *max_schema, kSchemaLimitName);
  if (!arg.ok()) return Usage("--schema: " + arg.status().message());
  const std::string& path = arg->source;
  ParseOptions parse_options;
  parse_options.source = path;
  auto schema = ParseJson(arg->text, parse_options);
  if (!schema.ok()) return Usage(schema.status().message());
  options.assert_format = !parsed->has("no-format");
  options.strict = parsed->has("strict");
  options.allow_unresolved_refs = parsed->has("allow-unresolved-refs");
  auto validator = pipeline::CheckSchema(*schema, options);
  if (!validator.ok()) return Usage(path + ": " + validator.status().message());
  for (const std::string& warning : (*validator)->warnings()) {
    std::fprintf(stderr, "structure validate: warning: %s\n", warning.c_str());
  }
  pipeline::ValidateLinesOptions lines;
  lines.all_errors = !parsed->has("first-error");
  lines.max_line_bytes = *max_line;
  lines.line_limit_name = "the limit of one line, --max-line-bytes";
  pipeline::ValidateLinesSummary summary =
      pipeline::ValidateLines(**validator, stdin, stdout, lines);
  if (summary.blank_lines > 0) {
    std::string lines;
    for (size_t n : summary.first_blank_lines)
      lines += (lines.empty() ? "" : ", ") + std::to_string(n);
    if (summary.blank_lines > summary.first_blank_lines.size()) lines += ", ...";
    std::fprintf(stderr,
                 "structure validate: skipped %zu blank line%s (line%s %s): the output has one "
                 "line per non-blank input line\n",
                 summary.blank_lines, summary.blank_lines == 1 ? "" : "s",
                 summary.blank_lines == 1 ? "" : "s", lines.c_str());
  }
  if (!summary.read_error.empty()) {
    std::fprintf(stderr, "structure validate: reading stdin: %s\n", summary.read_error.c_str());
    return 2;
  }
  return summary.invalid > 0 ? 1 : 0;
}

}  // namespace

STRUCTURE_COMMAND("validate", "validate JSON lines from stdin against a JSON Schema", RunValidate);

}  // namespace structure::apps
