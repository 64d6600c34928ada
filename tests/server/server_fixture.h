// One `structure sim` and one `structure serve` (tests/data/server/server.toml, keys
// "key-acme" and "key-globex") per test suite, plus helpers for calls and metrics.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <string>

#include "tests/server/http_client.h"
#include "tests/support/child_process.h"

namespace structure::testing {

inline constexpr const char* kTicketSchema =
    R"({"type":"object","properties":{"name":{"type":"string"},"priority":{"type":"integer","minimum":1,"maximum":5}},"required":["name","priority"],"additionalProperties":false})";

inline std::string DataFile(const std::string& name) {
  return std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/server/" + name;
}

inline std::unique_ptr<ChildProcess> StartSim(std::string* error) {
  return ChildProcess::StartListening(
      {STRUCTURE_BINARY, "sim", "--port", "0", "--scenario", DataFile("scenario.json")},
      std::chrono::seconds(60), error);
}

inline std::unique_ptr<ChildProcess> StartServe(const std::string& sim_url, std::string* error) {
  return ChildProcess::StartListening(
      {STRUCTURE_BINARY, "serve", "--config", DataFile("server.toml"), "--port", "0", "--base-url",
       sim_url, "--database", ":memory:"},
      std::chrono::seconds(60), error);
}

class ServerFixture : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    std::string error;
    sim_ = StartSim(&error).release();
    ASSERT_NE(sim_, nullptr) << error;
    serve_ = StartServe(sim_->base_url(), &error).release();
    ASSERT_NE(serve_, nullptr) << error;
  }
  static void TearDownTestSuite() {
    delete serve_;
    delete sim_;
    serve_ = nullptr;
    sim_ = nullptr;
  }
  void SetUp() override { ASSERT_NE(serve_, nullptr); }

  static std::string Url(const std::string& path) { return serve_->base_url() + path; }

  static std::string InlineCall(const std::string& prompt, int max_loops = 0) {
    std::string body = R"({"prompt":")" + prompt + R"(","schema":)" + kTicketSchema;
    if (max_loops > 0) body += R"(,"maxLoops":)" + std::to_string(max_loops);
    return body + "}";
  }

  static std::string Metrics() { return Http("GET", Url("/metrics")).body; }

  // The value of one series in Prometheus text ("name{labels} value"); 0 when absent.
  static double Value(const std::string& text, const std::string& series) {
    size_t at = 0;
    while ((at = text.find(series + " ", at)) != std::string::npos) {
      if (at == 0 || text[at - 1] == '\n')
        return std::strtod(text.c_str() + at + series.size() + 1, nullptr);
      at += series.size();
    }
    return 0;
  }

  static ChildProcess* sim_;
  static ChildProcess* serve_;
};

inline ChildProcess* ServerFixture::sim_ = nullptr;
inline ChildProcess* ServerFixture::serve_ = nullptr;

}  // namespace structure::testing
