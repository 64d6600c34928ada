// Runs one row of the bad-input table and says why it failed ("" when it passed). Every kind
// also fails on any sanitizer report in the stderr of the processes it ran.
#pragma once

#include <string>
#include <vector>

#include "tests/bad_inputs/table.h"

namespace structure::testing {

struct RowContext {
  std::string binary;        // the `structure` executable
  std::string data_dir;      // tests/data/bad_inputs (rows see its files/ as $DATA)
  std::string work_dir;      // per-run scratch; each row gets a fresh, empty directory below it
  std::string sim_url;       // http://127.0.0.1:PORT of the shared `structure sim`
  int serve_port = 0;        // the shared `structure serve` (http rows)
  std::string serve_stderr;  // its stderr file
  std::string
      providers_toml;  // a config with providers openai, anthropic, gemini, ollama on the sim
};

// The environment rows run in: PATH starts with the binary's directory, HOME is the row's own,
// SIM, DATA and SRC are set, sanitizer options are kept.
std::vector<std::string> RowEnvironment(const RowContext& ctx, const std::string& home);

std::string RunCliRow(const Row& row, const RowContext& ctx);
std::string RunHttpRow(const Row& row, const RowContext& ctx);
std::string RunMcpRow(const Row& row, const RowContext& ctx);
std::string RunReplyRow(const Row& row, const RowContext& ctx);

// The prompt marker a reply row's scenario rule matches ("ROW:name:").
std::string ReplyMarker(const Row& row);
// A reply row's input "PROVIDER [--flag ...] REPLY": the provider, the extra `run` flags and
// the scenario reply (JSON). False when it is not of that form.
bool SplitReplyInput(const Row& row, std::string* provider, std::vector<std::string>* flags,
                     std::string* reply);

}  // namespace structure::testing
