// `structure run` as a new user meets it, end to end against `structure sim` on loopback: every
// built-in provider with no config file (through --base-url), their missing keys, bad base URLs,
// Ctrl-C during a call, no database file in the working directory (also a read-only one), and
// stored schemas that last only with a configured database.
#include <dirent.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "base/json.h"
#include "base/read_file.h"
#include "tests/server/http_client.h"
#include "tests/support/sim_process.h"

namespace structure {
namespace {

// The file's text, or "" when it cannot be read.
std::string Slurp(const std::string& path) {
  auto text = ReadFile(path);
  return text.ok() ? *text : "";
}

const std::string kData = std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/";

// Every variable a provider key or address could come from: the tests never see a real one.
const std::vector<std::string> kEnvUnset = {"OPENAI_API_KEY",     "ANTHROPIC_API_KEY",
                                            "GEMINI_API_KEY",     "GOOGLE_API_KEY",
                                            "OPENROUTER_API_KEY", "OLLAMA_HOST"};

class RunCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string err;
    sim_ = testing::StartSim(STRUCTURE_BINARY, {"--scenario", kData + "apps/scenario.json"}, &err)
               .release();
    ASSERT_NE(sim_, nullptr) << err;
  }
  static void TearDownTestSuite() {
    delete sim_;
    sim_ = nullptr;
  }

  void SetUp() override {
    ASSERT_NE(sim_, nullptr);
    dir_ = ::testing::TempDir() + "run_cli_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    mkdir(dir_.c_str(), 0755);
  }
  void TearDown() override {
    std::string rm = "rm -rf '" + dir_ + "' '" + dir_ + ".out' '" + dir_ + ".err'";
    EXPECT_EQ(std::system(rm.c_str()), 0);
  }

  struct Outcome {
    int code;
    std::string out;
    std::string err;
  };

  // `structure run ARGS` in dir_ (its working directory), without any provider variable.
  std::unique_ptr<testing::ChildProcess> Start(const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"/usr/bin/env", "-C", dir_};
    for (const auto& v : kEnvUnset) {
      argv.push_back("-u");
      argv.push_back(v);
    }
    argv.push_back(STRUCTURE_BINARY);
    argv.push_back("run");
    argv.insert(argv.end(), args.begin(), args.end());
    std::string error;
    auto child = testing::ChildProcess::Spawn(argv, {"", dir_ + ".out", dir_ + ".err"}, &error);
    EXPECT_TRUE(child) << error;
    return child;
  }

  Outcome Run(const std::vector<std::string>& args) {
    auto child = Start(args);
    int code = child ? child->Wait() : -1;
    return {code, Slurp(dir_ + ".out"), Slurp(dir_ + ".err")};
  }

  static std::vector<std::string> Call(std::vector<std::string> extra,
                                       const std::string& prompt = "Mike broke the build") {
    std::vector<std::string> a = {"--prompt", prompt, "--schema", kData + "batch/schema.json"};
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  }

  static int64_t SimRequests() {
    auto stats = ParseJson(testing::Http("GET", sim_->base_url() + "/stats").body);
    const Json* requests = stats.ok() ? stats->find("requests") : nullptr;
    const Json* total = requests ? requests->find("total") : nullptr;
    return total ? total->as_int() : -1;
  }

  static inline testing::ChildProcess* sim_ = nullptr;
  std::string dir_;
};

TEST_F(RunCliTest, EveryBuiltInProviderWorksWithNoConfigFile) {
  for (const char* kind :
       {"openai", "anthropic", "gemini", "ollama", "openrouter", "openai-compatible"}) {
    // No bounds: the simulator generates answers from the schema it is sent, and a kind whose
    // profile does not send "maximum" would get (and re-ask about) out-of-range numbers.
    std::string schema = dir_ + "/name.schema.json";
    std::ofstream(schema)
        << R"({"type":"object","properties":{"name":{"type":"string"}},"required":["name"]})";
    Outcome r = Run({"--prompt", "Mike broke the build", "--schema", schema, "--provider", kind,
                     "--base-url", sim_->base_url()});
    EXPECT_EQ(r.code, 0) << kind << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("\"status\": \"ok\""), std::string::npos) << kind << "\n" << r.out;
  }
}

TEST_F(RunCliTest, ModelFlagPicksTheModelOfABuiltInProvider) {
  Outcome with_provider =
      Run(Call({"--provider", "openai", "--model", "picked-model", "--base-url", sim_->base_url()},
               "CASE-MODEL Mike"));
  EXPECT_EQ(with_provider.code, 0) << with_provider.out << with_provider.err;
  EXPECT_NE(with_provider.out.find("\"name\": \"Picked\""), std::string::npos) << with_provider.out;
  Outcome prefixed = Run(
      Call({"--model", "openai/picked-model", "--base-url", sim_->base_url()}, "CASE-MODEL Mike"));
  EXPECT_EQ(prefixed.code, 0) << prefixed.out << prefixed.err;
  EXPECT_NE(prefixed.out.find("\"name\": \"Picked\""), std::string::npos) << prefixed.out;
}

// Without --base-url the official host would be called: the missing key stops the run first.
TEST_F(RunCliTest, MissingKeyIsNamedBeforeAnyCall) {
  struct Case {
    const char* provider;
    const char* variable;
  };
  for (Case c : {Case{"openai", "OPENAI_API_KEY"}, Case{"anthropic", "ANTHROPIC_API_KEY"},
                 Case{"gemini", "GEMINI_API_KEY or GOOGLE_API_KEY"},
                 Case{"openrouter", "OPENROUTER_API_KEY"}}) {
    Outcome r = Run(Call({"--provider", c.provider}));
    EXPECT_EQ(r.code, 2) << c.provider << "\n" << r.err;
    EXPECT_NE(
        r.err.find(std::string("--provider ") + c.provider + ": no API key: set " + c.variable),
        std::string::npos)
        << r.err;
  }
}

TEST_F(RunCliTest, OpenAiCompatibleNeedsABaseUrl) {
  Outcome r = Run(Call({"--provider", "openai-compatible"}));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("needs the server's address: give --base-url URL"), std::string::npos)
      << r.err;
}

TEST_F(RunCliTest, UnknownProviderNamesWhatExists) {
  Outcome r = Run(Call({"--provider", "opneai"}));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(
      r.err.find("unknown provider 'opneai' (configured: simulator; built in: openai, anthropic"),
      std::string::npos)
      << r.err;
}

TEST_F(RunCliTest, BaseUrlMustBeAnHttpUrl) {
  for (const char* url :
       {"not-a-url", "ftp://x", "http://", "http://h:0", "http://h:99999", "http://h x"}) {
    Outcome r = Run(Call({"--base-url", url}));
    EXPECT_EQ(r.code, 2) << url << "\n" << r.err;
    EXPECT_NE(r.err.find("--base-url: not an http(s) URL"), std::string::npos) << url << "\n"
                                                                               << r.err;
  }
  Outcome empty = Run(Call({"--base-url", ""}));
  EXPECT_EQ(empty.code, 2) << empty.err;
  EXPECT_NE(empty.err.find("--base-url: must not be empty"), std::string::npos) << empty.err;
}

TEST_F(RunCliTest, CtrlCCancelsTheCallAndExits130) {
  int64_t before = SimRequests();
  auto run = Start(Call({"--base-url", sim_->base_url()}, "CASE-HANG Mike"));
  ASSERT_TRUE(run);
  // Interrupt once the call is on the wire (the simulator holds it for ten minutes).
  while (!run->Exited() && SimRequests() <= before)
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  run->Signal(SIGINT);
  int code = run->WaitFor(120);
  if (code < 0) run->Signal(SIGKILL);
  EXPECT_EQ(code, 130);
  std::string out = Slurp(dir_ + ".out");
  EXPECT_NE(out.find("\"code\": \"cancelled\""), std::string::npos) << out;
  EXPECT_NE(Slurp(dir_ + ".err").find("interrupted"), std::string::npos);
}

// No database file appears in the working directory unless one is configured.
TEST_F(RunCliTest, WritesNothingIntoTheWorkingDirectory) {
  Outcome r = Run(Call({"--base-url", sim_->base_url()}));
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  std::vector<std::string> entries;
  DIR* d = opendir(dir_.c_str());
  ASSERT_NE(d, nullptr);
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != "..") entries.push_back(name);
  }
  closedir(d);
  EXPECT_TRUE(entries.empty()) << entries.front();
}

// The default database is in memory: run, batch and mcp work in a working directory they cannot
// write to, and leave nothing there. As root a 0555 directory is still writable, so the commands
// then run as nobody (setpriv); without setpriv the empty directory is still checked.
TEST_F(RunCliTest, ReadOnlyWorkingDirectoryIsFine) {
  std::string input = dir_ + ".in";
  std::ofstream(input) << "{\"id\": \"a\", \"prompt\": \"Mike broke the build\"}\n";
  ASSERT_EQ(chmod(dir_.c_str(), 0555), 0);
  std::vector<std::string> as_user;
  if (geteuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0) {
    as_user = {"/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"};
  }
  std::string schema = kData + "batch/schema.json";
  struct Case {
    std::vector<std::string> args;
    std::string in;
  };
  for (const Case& c : {Case{{"run", "--prompt", "Mike broke the build", "--schema", schema}, ""},
                        Case{{"batch", "--schema", schema}, input}, Case{{"mcp"}, "/dev/null"}}) {
    std::vector<std::string> argv = as_user;
    for (const std::string& a : {std::string("/usr/bin/env"), std::string("-C"), dir_})
      argv.push_back(a);
    argv.push_back(STRUCTURE_BINARY);
    argv.insert(argv.end(), c.args.begin(), c.args.end());
    argv.push_back("--base-url");
    argv.push_back(sim_->base_url());
    std::string error;
    auto child = testing::ChildProcess::Spawn(argv, {c.in, dir_ + ".out", dir_ + ".err"}, &error);
    ASSERT_TRUE(child) << error;
    EXPECT_EQ(child->Wait(), 0) << c.args[0] << "\n"
                                << Slurp(dir_ + ".out") << Slurp(dir_ + ".err");
  }
  ASSERT_EQ(chmod(dir_.c_str(), 0755), 0);
  DIR* d = opendir(dir_.c_str());
  ASSERT_NE(d, nullptr);
  std::vector<std::string> entries;
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != "..") entries.push_back(name);
  }
  closedir(d);
  EXPECT_TRUE(entries.empty()) << entries.front();
  unlink(input.c_str());
}

// A schema stored through one `structure serve` is gone in the next one unless a database file
// is configured (then it is kept, and that file is the only one written).
TEST_F(RunCliTest, StoredSchemasLastOnlyWithADatabaseFile) {
  const std::string body =
      R"({"schema":{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]},)"
      R"("version":"1.0","manual":"A name."})";
  const std::vector<std::string> key = {"Authorization: Bearer key-acme"};
  auto serve = [&](const std::vector<std::string>& extra) {
    std::vector<std::string> argv = {"/usr/bin/env",
                                     "-C",
                                     dir_,
                                     STRUCTURE_BINARY,
                                     "serve",
                                     "--config",
                                     kData + "server/server.toml",
                                     "--port",
                                     "0",
                                     "--base-url",
                                     sim_->base_url()};
    argv.insert(argv.end(), extra.begin(), extra.end());
    std::string error;
    auto child = testing::ChildProcess::StartListening(argv, std::chrono::seconds(120), &error);
    EXPECT_TRUE(child) << error;
    return child;
  };
  for (bool with_file : {false, true}) {
    std::vector<std::string> extra;
    if (with_file) extra = {"--database", dir_ + "/keep.db"};
    auto first = serve(extra);
    ASSERT_TRUE(first);
    std::string url = "http://127.0.0.1:" + std::to_string(first->port());
    ASSERT_EQ(testing::Http("PUT", url + "/v1/schemas/leak", body, key).status, 200);
    ASSERT_EQ(testing::Http("GET", url + "/v1/schemas/leak", "", key).status, 200);
    first.reset();
    auto second = serve(extra);
    ASSERT_TRUE(second);
    url = "http://127.0.0.1:" + std::to_string(second->port());
    EXPECT_EQ(testing::Http("GET", url + "/v1/schemas/leak", "", key).status, with_file ? 200 : 404)
        << (with_file ? "the configured database lost it" : "it leaked into the next serve");
  }
  std::vector<std::string> entries;
  DIR* d = opendir(dir_.c_str());
  ASSERT_NE(d, nullptr);
  while (dirent* e = readdir(d)) {
    std::string name = e->d_name;
    if (name != "." && name != ".." && name.rfind("keep.db", 0) != 0)
      entries.push_back(name);  // -wal, -shm
  }
  closedir(d);
  EXPECT_TRUE(entries.empty()) << entries.front();
}

}  // namespace
}  // namespace structure
