// One `structure sim` (tests/data/server/openai/scenario.json, recording every request it gets)
// and one `structure serve` (tests/data/server/openai/serve.toml) per test suite, for the
// OpenAI-compatible endpoint.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <sstream>
#include <string>

#include "base/json.h"
#include "tests/server/http_client.h"
#include "tests/support/child_process.h"

namespace structure::testing {

inline const std::string kAcmeKey = "Authorization: Bearer key-acme";

inline std::string OpenAiData(const std::string& name) {
  return std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/server/openai/" + name;
}

// The ticket schema: `ticket` must match ^T-[0-9]{3}$ and `priority` be >= 1, two constraints
// the simulator's scripted first answers break.
inline constexpr const char* kChatTicketSchema =
    R"({"type":"object","properties":{"ticket":{"type":"string","pattern":"^T-[0-9]{3}$"},)"
    R"("priority":{"type":"integer","minimum":1}},"required":["ticket","priority"],)"
    R"("additionalProperties":false})";

// A chat.completions body: one user message, the ticket schema as response_format, `extra`
// members appended (",\"stream\":true").
inline std::string ChatBody(const std::string& prompt, const std::string& extra = "",
                            const std::string& model = "default:fast") {
  return R"({"model":")" + model + R"(","messages":[{"role":"user","content":")" + prompt +
         R"("}],"response_format":{"type":"json_schema","json_schema":{"name":"ticket",)"
         R"("strict":true,"schema":)" +
         kChatTicketSchema + "}}" + extra + "}";
}

class OpenAiFixture : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string error;
    record_ = ::testing::TempDir() + "openai_requests_" + std::to_string(getpid()) + ".jsonl";
    sim_ = ChildProcess::StartListening({STRUCTURE_BINARY, "sim", "--port", "0", "--scenario",
                                         OpenAiData("scenario.json"), "--record-requests", record_},
                                        std::chrono::seconds(60), &error)
               .release();
    ASSERT_NE(sim_, nullptr) << error;
    serve_ = ChildProcess::StartListening(
                 {STRUCTURE_BINARY, "serve", "--config", OpenAiData("serve.toml"), "--port", "0",
                  "--base-url", sim_->base_url(), "--database", ":memory:"},
                 std::chrono::seconds(60), &error)
                 .release();
    ASSERT_NE(serve_, nullptr) << error;
  }
  static void TearDownTestSuite() {
    delete serve_;
    delete sim_;
    serve_ = nullptr;
    sim_ = nullptr;
    unlink(record_.c_str());
  }
  void SetUp() override { ASSERT_NE(serve_, nullptr); }

  static std::string Url(const std::string& path) { return serve_->base_url() + path; }
  static HttpReply Chat(const std::string& body, std::vector<std::string> headers = {kAcmeKey}) {
    return Http("POST", Url("/v1/chat/completions"), body, headers);
  }
  static Json SimStats() { return *ParseJson(Http("GET", sim_->base_url() + "/stats").body); }
  // The bodies the simulator received, in order.
  static std::vector<Json> Recorded() {
    std::vector<Json> out;
    std::ifstream in(record_);
    std::string line;
    while (std::getline(in, line)) {
      auto j = ParseJson(line);
      if (j.ok() && j->find("body") != nullptr)
        out.push_back(*ParseJson(j->find("body")->as_string()));
    }
    return out;
  }

  static ChildProcess* sim_;
  static ChildProcess* serve_;
  static std::string record_;
};

inline ChildProcess* OpenAiFixture::sim_ = nullptr;
inline ChildProcess* OpenAiFixture::serve_ = nullptr;
inline std::string OpenAiFixture::record_;

// The error object of an OpenAI error body ({"error": {...}}); null when it is not one.
inline Json ErrorOf(const HttpReply& r) {
  auto j = ParseJson(r.body);
  if (!j.ok() || !j->is_object() || j->find("error") == nullptr) return Json();
  return *j->find("error");
}

}  // namespace structure::testing
