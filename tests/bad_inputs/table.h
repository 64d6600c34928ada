// The bad-input table: rows read from tests/data/bad_inputs/*.tsv (format in the README there),
// the escapes their HTTP and MCP inputs use, and the sanitizer check every row must pass.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace structure::testing {

struct Row {
  std::string file;  // "cli.tsv"
  int line = 0;
  std::string kind;     // cli | http | mcp | reply
  std::string name;     // short, unique: "run-missing-schema"
  std::string input;    // as written (cli) or still escaped (http, mcp, reply)
  std::string expect;   // exit code, HTTP status, JSON-RPC outcome
  std::string message;  // text the answer must contain ("-": none)

  std::string Where() const { return file + ":" + std::to_string(line) + " " + name; }
};

// Every row of every *.tsv file in `dir`, files in name order. A malformed row (not five
// tab-separated fields, an unknown kind, a duplicate name) is reported in *errors, one line each.
std::vector<Row> LoadRows(const std::string& dir, std::vector<std::string>* errors);

// Resolves \n \r \t \0 \\ and \xHH; any other backslash stays as it is.
std::string Unescape(std::string_view s);

// The first line of `text` that reports a sanitizer finding (ASan, UBSan, LSan), or "".
std::string SanitizerReport(std::string_view text);

// `text` on one line (white space folded) and cut at `max` bytes, control bytes as \xHH, for
// one-line failure messages.
std::string Excerpt(std::string_view text, size_t max = 300);

}  // namespace structure::testing
