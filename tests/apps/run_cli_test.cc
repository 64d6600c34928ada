// `structure run` as a new user meets it, end to end against `structure sim` on loopback: every
// built-in provider with no config file (through --base-url), their missing keys, bad base URLs,
// Ctrl-C during a call, and no database file in the working directory.
#include <gtest/gtest.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "base/json.h"
#include "tests/actors/sim_process.h"
#include "tests/server/http_client.h"

namespace structure {
namespace {

// The file's text, or "" when it cannot be read.
std::string Slurp(const std::string& path) {
  auto text = ReadFile(path);
  return text.ok() ? *text : "";
}

const std::string kData = std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/";

// Every variable a provider key or address could come from: the tests never see a real one.
const std::vector<std::string> kEnvUnset = {"OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GEMINI_API_KEY",
                                            "GOOGLE_API_KEY", "OPENROUTER_API_KEY", "OLLAMA_HOST"};

class RunCliTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string err;
    sim_ = testing::StartSim(STRUCTURE_BINARY, {"--scenario", kData + "apps/scenario.json"}, &err).release();
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

  static std::vector<std::string> Call(std::vector<std::string> extra, const std::string& prompt = "Mike broke the build") {
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
  for (const char* kind : {"openai", "anthropic", "gemini", "ollama", "openrouter", "openai-compatible"}) {
    // No bounds: the simulator generates answers from the schema it is sent, and a kind whose
    // profile does not send "maximum" would get (and re-ask about) out-of-range numbers.
    std::string schema = dir_ + "/name.schema.json";
    std::ofstream(schema) << R"({"type":"object","properties":{"name":{"type":"string"}},"required":["name"]})";
    Outcome r = Run({"--prompt", "Mike broke the build", "--schema", schema, "--provider", kind, "--base-url",
                     sim_->base_url()});
    EXPECT_EQ(r.code, 0) << kind << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("\"status\": \"ok\""), std::string::npos) << kind << "\n" << r.out;
  }
}

TEST_F(RunCliTest, ModelFlagPicksTheModelOfABuiltInProvider) {
  Outcome with_provider = Run(Call({"--provider", "openai", "--model", "picked-model", "--base-url",
                                    sim_->base_url()}, "CASE-MODEL Mike"));
  EXPECT_EQ(with_provider.code, 0) << with_provider.out << with_provider.err;
  EXPECT_NE(with_provider.out.find("\"name\": \"Picked\""), std::string::npos) << with_provider.out;
  Outcome prefixed = Run(Call({"--model", "openai/picked-model", "--base-url", sim_->base_url()},
                              "CASE-MODEL Mike"));
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
                 Case{"gemini", "GEMINI_API_KEY or GOOGLE_API_KEY"}, Case{"openrouter", "OPENROUTER_API_KEY"}}) {
    Outcome r = Run(Call({"--provider", c.provider}));
    EXPECT_EQ(r.code, 2) << c.provider << "\n" << r.err;
    EXPECT_NE(r.err.find(std::string("--provider ") + c.provider + ": no API key: set " + c.variable),
              std::string::npos) << r.err;
  }
}

TEST_F(RunCliTest, OpenAiCompatibleNeedsABaseUrl) {
  Outcome r = Run(Call({"--provider", "openai-compatible"}));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("needs the server's address: give --base-url URL"), std::string::npos) << r.err;
}

TEST_F(RunCliTest, UnknownProviderNamesWhatExists) {
  Outcome r = Run(Call({"--provider", "opneai"}));
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_NE(r.err.find("unknown provider 'opneai' (configured: simulator; built in: openai, anthropic"),
            std::string::npos) << r.err;
}

TEST_F(RunCliTest, BaseUrlMustBeAnHttpUrl) {
  for (const char* url : {"not-a-url", "ftp://x", "http://", "http://h:0", "http://h:99999", "http://h x"}) {
    Outcome r = Run(Call({"--base-url", url}));
    EXPECT_EQ(r.code, 2) << url << "\n" << r.err;
    EXPECT_NE(r.err.find("--base-url: not an http(s) URL"), std::string::npos) << url << "\n" << r.err;
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
  while (!run->Exited() && SimRequests() <= before) std::this_thread::sleep_for(std::chrono::milliseconds(20));
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

}  // namespace
}  // namespace structure
