// The bad-input table (tests/data/bad_inputs/*.tsv): every row is a command, HTTP
// request, MCP line or scripted provider reply that must end in a clear error, never a crash,
// a hang or a sanitizer report. One line per row on stdout; a failing row says why.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>

#include "base/json.h"
#include "tests/bad_inputs/row_runner.h"
#include "tests/bad_inputs/run_process.h"
#include "tests/bad_inputs/table.h"
#include "tests/support/child_process.h"

namespace structure::testing {
namespace {

namespace fs = std::filesystem;

// Rows the table must hold at least: 80 across every command, so no command goes untested.
constexpr size_t kMinRows = 80;

class BadInputsTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    ctx_.binary = STRUCTURE_BINARY;
    ctx_.data_dir = std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/bad_inputs";
    ctx_.work_dir = ::testing::TempDir() + "bad_inputs." + std::to_string(getpid());
    fs::remove_all(ctx_.work_dir);
    fs::create_directories(ctx_.work_dir);
    rows_ = LoadRows(ctx_.data_dir, &errors_);
    std::string scenario = ctx_.work_dir + "/scenario.json";
    std::ofstream(scenario) << ReplyScenario();
    std::string error;
    sim_ = ChildProcess::StartListening({ctx_.binary, "sim", "--port", "0", "--scenario", scenario},
                                        std::chrono::seconds(120), &error,
                                        ctx_.work_dir + "/sim.stderr")
               .release();
    if (sim_ == nullptr) {
      errors_.push_back("cannot start structure sim: " + error);
      return;
    }
    ctx_.sim_url = sim_->base_url();
    ctx_.providers_toml = ctx_.work_dir + "/providers.toml";
    std::ofstream(ctx_.providers_toml) << ProvidersToml(ctx_.sim_url);
  }

  static void TearDownTestSuite() {
    if (serve_ != nullptr) serve_->Stop();
    if (sim_ != nullptr) sim_->Stop();
    delete serve_;
    delete sim_;
    serve_ = nullptr;
    sim_ = nullptr;
    fs::remove_all(ctx_.work_dir);
  }

  // One scenario rule per reply row, matched by the row's marker in the prompt.
  static std::string ReplyScenario() {
    Json rules = Json::MakeArray();
    for (const Row& row : rows_) {
      if (row.kind != "reply") continue;
      std::string provider, reply;
      std::vector<std::string> flags;
      if (!SplitReplyInput(row, &provider, &flags, &reply)) continue;  // reported by the row
      auto parsed = ParseJson(reply);
      if (!parsed.ok()) {
        errors_.push_back(row.Where() + ": the reply is not JSON: " + parsed.status().message());
        continue;
      }
      Json rule = Json::MakeObject();
      rule.set("name", row.name);
      rule.set("contains", ReplyMarker(row));
      rule.set("provider", provider);
      rule.set(parsed->is_array() ? "replies" : "reply", std::move(*parsed));
      rules.push_back(std::move(rule));
    }
    Json scenario = Json::MakeObject();
    scenario.set("description", "bad-input table: scripted replies (generated)");
    scenario.set("seed", 21);
    scenario.set("rules", std::move(rules));
    return ToJson(scenario, true);
  }

  static std::string ProvidersToml(const std::string& sim) {
    return "[providers.openai]\nkind = \"openai\"\nbase_url = \"" + sim +
           "/v1\"\napi_key_env = \"BAD_INPUTS_KEY\"\nmodel = \"gpt-4o-mini\"\n"
           "profile = \"openai-strict\"\n"
           "[providers.anthropic]\nkind = \"anthropic\"\nbase_url = \"" +
           sim +
           "\"\napi_key_env = \"BAD_INPUTS_KEY\"\nmodel = \"claude-haiku-4-5\"\n"
           "profile = \"anthropic-strict\"\n"
           "[providers.gemini]\nkind = \"gemini\"\nbase_url = \"" +
           sim +
           "\"\napi_key_env = \"BAD_INPUTS_KEY\"\nmodel = \"gemini-2.5-flash\"\nprofile = "
           "\"gemini\"\n"
           "[providers.ollama]\nkind = \"ollama\"\nbase_url = \"" +
           sim +
           "\"\nmodel = \"llama3.1\"\nprofile = \"ollama\"\n"
           "[aliases]\n\"default:fast\" = \"openai\"\n\"default:analyze\" = \"openai\"\n";
  }

  static bool StartServe(std::string* error) {
    if (serve_ != nullptr) return true;
    ctx_.serve_stderr = ctx_.work_dir + "/serve.stderr";
    serve_ = ChildProcess::StartListening(
                 {ctx_.binary, "serve", "--config", ctx_.data_dir + "/serve.toml", "--port", "0",
                  "--base-url", ctx_.sim_url + "/v1", "--database", ":memory:"},
                 std::chrono::seconds(120), error, ctx_.serve_stderr)
                 .release();
    if (serve_ == nullptr) return false;
    ctx_.serve_port = serve_->port();
    return true;
  }

  // Runs every row of `kind` (of the files `in_file` accepts): one line per row, a test failure
  // per failing row.
  void RunKind(const std::string& kind, std::string (*run)(const Row&, const RowContext&),
               bool (*in_file)(const std::string&) = nullptr) {
    ASSERT_NE(sim_, nullptr) << (errors_.empty() ? "no simulator" : errors_.back());
    size_t count = 0, failed = 0;
    for (const Row& row : rows_) {
      if (row.kind != kind || (in_file != nullptr && !in_file(row.file))) continue;
      ++count;
      std::string why = run(row, ctx_);
      std::printf("%s %s\n", why.empty() ? "ok  " : "FAIL", row.Where().c_str());
      std::fflush(stdout);
      if (!why.empty()) {
        ++failed;
        ADD_FAILURE() << row.Where() << ": " << why;
      }
    }
    std::printf("%zu %s rows, %zu failed\n", count, kind.c_str(), failed);
    std::string sim_report = SanitizerReport(ReadAll(ctx_.work_dir + "/sim.stderr"));
    EXPECT_EQ(sim_report, "") << "structure sim";
  }

  static RowContext ctx_;
  static std::vector<Row> rows_;
  static std::vector<std::string> errors_;
  static ChildProcess* sim_;
  static ChildProcess* serve_;
};

RowContext BadInputsTest::ctx_;
std::vector<Row> BadInputsTest::rows_;
std::vector<std::string> BadInputsTest::errors_;
ChildProcess* BadInputsTest::sim_ = nullptr;
ChildProcess* BadInputsTest::serve_ = nullptr;

TEST_F(BadInputsTest, TableIsWellFormed) {
  for (const auto& e : errors_) ADD_FAILURE() << e;
  EXPECT_GE(rows_.size(), kMinRows) << "the table holds too few rows";
}

// The command rows run as four tests (cli.tsv, config.tsv, input_files.tsv, the other files), so
// that ctest runs them side by side and each stays well inside its time limit (input_files.tsv
// waits out the FIFO bound, 10 s, in several rows).
TEST_F(BadInputsTest, CommandLines) {
  RunKind("cli", RunCliRow, [](const std::string& file) { return file == "cli.tsv"; });
}

TEST_F(BadInputsTest, ConfigCommandLines) {
  RunKind("cli", RunCliRow, [](const std::string& file) { return file == "config.tsv"; });
}

TEST_F(BadInputsTest, InputFileCommandLines) {
  RunKind("cli", RunCliRow, [](const std::string& file) { return file == "input_files.tsv"; });
}

TEST_F(BadInputsTest, OtherCommandLines) {
  RunKind("cli", RunCliRow, [](const std::string& file) {
    return file != "cli.tsv" && file != "config.tsv" && file != "input_files.tsv";
  });
}

TEST_F(BadInputsTest, HttpRequests) {
  std::string error;
  ASSERT_TRUE(StartServe(&error)) << error;
  RunKind("http", RunHttpRow);
  serve_->Stop(std::chrono::seconds(30));
  EXPECT_EQ(serve_->Wait(), 0) << "structure serve did not stop cleanly";
  EXPECT_EQ(SanitizerReport(ReadAll(ctx_.serve_stderr)), "") << "structure serve";
}

TEST_F(BadInputsTest, McpLines) { RunKind("mcp", RunMcpRow); }

TEST_F(BadInputsTest, ScriptedReplies) { RunKind("reply", RunReplyRow); }

}  // namespace
}  // namespace structure::testing
