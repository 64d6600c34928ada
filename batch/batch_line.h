// One line of a `structure batch` input file: its identity (the id, or the line number when it
// has none), the parsed request with the command's defaults filled in, or why the line is bad.
// And the output line written for a result.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "base/json.h"
#include "pipeline/request.h"
#include "pipeline/result.h"
#include "structure/status.h"

namespace structure::batch {

// Values a line may leave out; set from the command's flags. Empty/null = no default.
struct LineDefaults {
  // Inline schema (--schema FILE), checked once with pipeline::CheckInlineSchema and shared by
  // every line that names no schema.
  std::shared_ptr<const Json> schema;
  std::string schema_name;  // --schema-name
  std::string schema_text;  // --schema-text
  std::optional<int64_t> max_loops;
  std::optional<int64_t> call_timeout_ms;  // --call-timeout-ms
  std::string tenant;
  std::string project;
  std::string model;
  std::string priority = "bulk";  // batch work yields to interactive calls by default
  std::string evidence;           // --evidence: off | report | require
};

struct BatchLine {
  uint64_t line_no = 0;  // 1-based position in the input
  Json id;               // the line's "id" (string or integer); null when absent or unreadable
  std::string key;       // identity for --resume: KeyForId(id), or KeyForLine(line_no)
  std::optional<pipeline::StructureRequest> request;  // set iff the line is good
  Status error;  // why the line is bad (kInvalidArgument), ok otherwise
  // What is wrong with a bad line, without the "line N: " that starts error's message (for a
  // line whose number means nothing to the user: the command's defaults, checked as a line).
  // A line that is no JSON keeps the parser's position.
  std::string problem;
};

// The longest input line read (a prompt and an inline schema of 1 MiB each, escaped); a
// longer one is a bad line (LineTooLong), its bytes dropped.
inline constexpr size_t kMaxLineBytes = size_t{16} << 20;

// The resume identity of a record: the compact JSON of its id ("\"a-1\"", "17"), or "line:N".
std::string KeyForId(const Json& id);
std::string KeyForLine(uint64_t line_no);

// True for a line holding only white space (skipped, produces no output).
bool IsBlankLine(std::string_view text);

// Parses one input line {"id", "prompt", "schema" | "schemaName" | "schemaText", "maxLoops",
// "tenant", "project", ...} (any field of pipeline::ParseRequest). Never fails: a bad line
// comes back with `error` set, naming the line and what is wrong, keyed by id when the id
// could be read, else by line number. A UTF-8 byte order mark at the start of line 1 is skipped.
BatchLine ParseBatchLine(std::string_view text, uint64_t line_no, const LineDefaults& defaults);

// The bad line for an input line longer than `max_bytes` (keyed by its line number).
BatchLine LineTooLong(uint64_t line_no, size_t max_bytes);

// The output line for a result, newline included: {"id": ID, ...ResultToJson(result)}, or
// {"line": N, ...} when the record has no id.
std::string FormatResultLine(const Json& id, uint64_t line_no, pipeline::StructureResult result);

// The inline schema of --schema FILE (or --schema '{...}', base/json_arg.h): read, checked
// (pipeline::CheckInlineSchema) and compiled once, so a schema that would fail every line fails
// the command before any call. kInvalidArgument "--schema FILE: ..."; a file that cannot be
// read as ReadFile says.
Result<std::shared_ptr<const Json>> LoadDefaultSchema(const std::string& value);

// Checks the defaults as a line that names nothing would see them, so what is wrong with them
// is one usage error now rather than an error on every line later. kInvalidArgument "the default
// flags: ...".
Status CheckDefaults(const LineDefaults& defaults);

// The error result for a bad line (code kBadRequest).
pipeline::StructureResult BadLineResult(const Status& error);

}  // namespace structure::batch
