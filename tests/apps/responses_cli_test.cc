// OpenAI's Responses API end to end: `structure run` with a gpt-5.4 provider against
// `structure sim`, which refuses function tools with reasoning on /v1/chat/completions for that
// family as OpenAI does. Final-tool mode, its re-ask (the reasoning items go back whole), the
// need tool, schema mode, and `api = "chat"` in the config, which meets OpenAI's 400.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <vector>

#include "base/json.h"
#include "base/read_file.h"
#include "tests/support/sim_process.h"

namespace structure {
namespace {

const std::string kData = std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/";

std::string Slurp(const std::string& path) {
  auto text = ReadFile(path);
  return text.ok() ? *text : "";
}

class ResponsesCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = ::testing::TempDir() + "responses_cli_" + std::to_string(getpid()) + "_" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name();
    mkdir(dir_.c_str(), 0755);
    log_ = dir_ + "/requests.jsonl";
    std::string err;
    sim_ = testing::StartSim(
        STRUCTURE_BINARY,
        {"--scenario", kData + "apps/responses_scenario.json", "--record-requests", log_}, &err);
    ASSERT_NE(sim_, nullptr) << err;
  }
  void TearDown() override {
    sim_.reset();
    std::string rm = "rm -rf '" + dir_ + "'";
    EXPECT_EQ(std::system(rm.c_str()), 0);
  }

  struct Outcome {
    int code;
    std::string out;
    std::string err;
  };

  // A config with one OpenAI provider "oai" at the simulator: gpt-5.4, reasoning high, and
  // `api_line` (e.g. `api = "chat"`) when given.
  std::string Config(const std::string& api_line = "") {
    std::string path = dir_ + "/c.toml";
    std::ofstream(path) << "[providers.oai]\nkind = \"openai\"\nbase_url = \"" << sim_->base_url()
                        << "/v1\"\nmodel = \"gpt-5.4\"\nreasoning_effort = \"high\"\n"
                        << api_line << "\n";
    return path;
  }

  Outcome Run(const std::string& prompt, std::vector<std::string> extra,
              const std::string& config) {
    std::vector<std::string> argv = {"/usr/bin/env", "-u",       "OPENAI_API_KEY",
                                     "-C",           dir_,       STRUCTURE_BINARY,
                                     "run",          "--config", config,
                                     "--provider",   "oai",      "--prompt",
                                     prompt,         "--schema", kData + "batch/schema.json",
                                     "--database",   ":memory:"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    std::string error;
    auto child = testing::ChildProcess::Spawn(argv, {"", dir_ + "/out", dir_ + "/err"}, &error);
    EXPECT_TRUE(child) << error;
    int code = child ? child->Wait() : -1;
    return {code, Slurp(dir_ + "/out"), Slurp(dir_ + "/err")};
  }

  // The requests the simulator received: {"path", "body" (text)} each.
  std::vector<Json> Requests() {
    std::vector<Json> out;
    std::string text = Slurp(log_);
    size_t pos = 0;
    while (pos < text.size()) {
      size_t nl = text.find('\n', pos);
      if (nl == std::string::npos) nl = text.size();
      auto line = ParseJson(text.substr(pos, nl - pos));
      pos = nl + 1;
      if (!line.ok()) continue;
      auto body = ParseJson(line->find("body")->as_string());
      Json r = Json::MakeObject();
      r.set("path", *line->find("path"));
      r.set("body", body.ok() ? *body : Json());
      out.push_back(std::move(r));
    }
    return out;
  }

  std::string dir_;
  std::string log_;
  std::unique_ptr<testing::ChildProcess> sim_;
};

// Types of the input items of a request body, in order ("user", "reasoning", ...).
std::vector<std::string> InputTypes(const Json& body) {
  std::vector<std::string> types;
  for (const Json& item : body.find("input")->as_array()) {
    const Json* type = item.find("type");
    types.push_back(type ? type->as_string() : item.find("role")->as_string());
  }
  return types;
}

TEST_F(ResponsesCliTest, FinalToolOnGpt54GoesToTheResponsesApi) {
  Outcome r = Run("Mike broke the build", {"--final-tool"}, Config());
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\"status\": \"ok\""), std::string::npos) << r.out;
  auto requests = Requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(*requests[0].find("path"), Json("/v1/responses"));
  const Json& body = *requests[0].find("body");
  EXPECT_EQ(*body.find("reasoning")->find("effort"), Json("high"));
  EXPECT_EQ(*body.find("tools")->as_array()[0].find("name"), Json("submit"));
  EXPECT_EQ(body.find("messages"), nullptr);
}

// A rejected submit call goes back with the reasoning item that led to it (its
// encrypted_content unchanged) and its function_call item, then the tool's error: the
// simulator refuses anything less, as OpenAI does.
TEST_F(ResponsesCliTest, AReaskCarriesTheReasoningItems) {
  Outcome r = Run("CASE-REASK Mike broke the build", {"--final-tool"}, Config());
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("\"status\": \"ok\""), std::string::npos) << r.out;
  auto requests = Requests();
  ASSERT_EQ(requests.size(), 2u) << r.out;
  const Json& second = *requests[1].find("body");
  EXPECT_EQ(InputTypes(second), (std::vector<std::string>{"user", "reasoning", "function_call",
                                                          "function_call_output"}))
      << ToJson(second);
  const Json& reasoning = second.find("input")->as_array()[1];
  EXPECT_EQ(reasoning.find("encrypted_content")->as_string().rfind("gAAAAB", 0), 0u);
}

TEST_F(ResponsesCliTest, TheNeedToolEndsWithNeedMoreInput) {
  Outcome r = Run("CASE-NEED Something broke", {"--final-tool"}, Config());
  EXPECT_EQ(r.code, 3) << r.out << r.err;
  EXPECT_NE(r.out.find("\"status\": \"need-more-input\""), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("the priority of the ticket"), std::string::npos) << r.out;
  auto requests = Requests();
  ASSERT_EQ(requests.size(), 1u);
  EXPECT_EQ(*requests[0].find("path"), Json("/v1/responses"));
  EXPECT_EQ(requests[0].find("body")->find("tools")->size(), 2u);
}

TEST_F(ResponsesCliTest, SchemaModeSendsTextFormat) {
  Outcome r = Run("Mike broke the build", {}, Config());
  ASSERT_EQ(r.code, 0) << r.out << r.err;
  auto requests = Requests();
  ASSERT_GE(requests.size(), 1u);
  EXPECT_EQ(*requests[0].find("path"), Json("/v1/responses"));
  const Json* format = requests[0].find("body")->find("text")->find("format");
  EXPECT_EQ(*format->find("type"), Json("json_schema"));
}

// Chat completions, chosen in the config, meets the family's 400 with OpenAI's words.
TEST_F(ResponsesCliTest, ApiChatMeetsOpenAisRefusal) {
  Outcome r = Run("Mike broke the build", {"--final-tool"}, Config("api = \"chat\""));
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("Function tools with reasoning_effort are not supported for gpt-5.4 in "
                       "/v1/chat/completions. Please use /v1/responses instead"),
            std::string::npos)
      << r.out;
  auto requests = Requests();
  ASSERT_GE(requests.size(), 1u);
  EXPECT_EQ(*requests[0].find("path"), Json("/v1/chat/completions"));
}

}  // namespace
}  // namespace structure
