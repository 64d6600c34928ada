// McpServer in process: JSON-RPC framing and errors, tools/list, and tools/call through an
// Engine against `structure sim`.
#include "server/mcp/mcp_server.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <mutex>
#include <vector>

#include "tests/server/server_fixture.h"
#include "tests/support/engine_fixture.h"

namespace structure::mcp {
namespace {

class McpServerTest : public testing::EngineFixture<McpServerTest> {
 public:
  static std::unique_ptr<testing::ChildProcess> StartSuiteSim(std::string* error) {
    return testing::StartSim(error);
  }

 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(StartEngine());
    server_ = std::make_unique<McpServer>(*engine_, McpOptions{}, [this](const std::string& m) {
      std::lock_guard<std::mutex> lock(mu_);
      out_.push_back(m);
    });
  }

  // Sends one message and returns every answer produced once the calls under way finished.
  std::vector<Json> Send(const std::string& message) {
    server_->HandleMessage(message);
    server_->Drain();
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Json> answers;
    for (const auto& m : out_) answers.push_back(*ParseJson(m));
    out_.clear();
    return answers;
  }

  Json One(const std::string& message) {
    auto answers = Send(message);
    EXPECT_EQ(answers.size(), 1u) << message;
    return answers.empty() ? Json() : answers[0];
  }

  // Feeds `bytes` (NULs included) to RunStdio as its stdin; returns every answer.
  std::vector<Json> RunOn(McpServer& server, const std::string& bytes) {
    std::string copy = bytes;
    std::FILE* in = fmemopen(copy.data(), copy.size(), "r");
    EXPECT_NE(in, nullptr);
    if (in == nullptr) return {};
    EXPECT_EQ(RunStdio(server, in), 0);
    std::fclose(in);
    std::lock_guard<std::mutex> lock(mu_);
    std::vector<Json> answers;
    for (const auto& m : out_) {
      auto parsed = ParseJson(m);
      EXPECT_TRUE(parsed.ok()) << m;
      if (parsed.ok()) answers.push_back(*parsed);
    }
    out_.clear();
    return answers;
  }

  std::unique_ptr<McpServer> server_;
  std::mutex mu_;
  std::vector<std::string> out_;
};

TEST_F(McpServerTest, InitializeAnswersTheProtocolRevisionAndToolsCapability) {
  Json r = One(
      R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}})");
  EXPECT_EQ(r.find("id")->as_int(), 1);
  const Json* result = r.find("result");
  ASSERT_NE(result, nullptr) << ToJson(r);
  EXPECT_EQ(result->find("protocolVersion")->as_string(), "2025-06-18");
  EXPECT_NE(result->find("capabilities")->find("tools"), nullptr);
  EXPECT_EQ(result->find("serverInfo")->find("name")->as_string(), "structure");
  EXPECT_TRUE(Send(R"({"jsonrpc":"2.0","method":"notifications/initialized"})").empty());
  EXPECT_EQ(ToJson(*One(R"({"jsonrpc":"2.0","id":"p","method":"ping"})").find("result")), "{}");
}

TEST_F(McpServerTest, MalformedMessagesGetJsonRpcErrors) {
  EXPECT_EQ(One("{oops").find("error")->find("code")->as_int(), -32700);
  EXPECT_EQ(One("[1]").find("error")->find("code")->as_int(), -32600);
  EXPECT_EQ(
      One(R"({"jsonrpc":"2.0","id":2,"method":"nope"})").find("error")->find("code")->as_int(),
      -32601);
  EXPECT_EQ(One(R"({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"nope"}})")
                .find("error")
                ->find("code")
                ->as_int(),
            -32602);
}

TEST_F(McpServerTest, ToolsListHasTheSeedParameters) {
  Json r = One(R"({"jsonrpc":"2.0","id":4,"method":"tools/list"})");
  const Json& tools = *r.find("result")->find("tools");
  ASSERT_EQ(tools.size(), 2u);
  const Json& structure = tools.as_array()[0];
  EXPECT_EQ(structure.find("name")->as_string(), "structure");
  const Json* props = structure.find("inputSchema")->find("properties");
  for (const char* p : {"prompt", "schema", "schemaMode", "maxLoops", "confidenceThreshold",
                        "requireProviderStrictOutput", "evidence", "files", "filesAs"}) {
    EXPECT_NE(props->find(p), nullptr) << p;
  }
  EXPECT_EQ(props->size(), 9u);
  EXPECT_EQ(ToJson(*props->find("evidence")->find("enum")), R"(["off","report","require"])");
  EXPECT_EQ(ToJson(*props->find("schemaMode")->find("enum")), R"(["json","named","text"])");
  EXPECT_EQ(tools.as_array()[1].find("name")->as_string(), "list_schemas");
}

TEST_F(McpServerTest, StructureCallReturnsStructuredContentAndText) {
  Json r = One(
      std::string(
          R"({"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"structure","arguments":{"prompt":"Mike, priority 2","schema":)") +
      testing::kTicketSchema + "}}}");
  const Json* result = r.find("result");
  ASSERT_NE(result, nullptr) << ToJson(r);
  EXPECT_FALSE(result->find("isError")->as_bool()) << ToJson(r);
  const Json* sc = result->find("structuredContent");
  ASSERT_NE(sc, nullptr);
  EXPECT_EQ(sc->find("status")->as_string(), "ok");
  EXPECT_EQ(sc->find("schemaOrigin")->as_string(), "inline");
  EXPECT_EQ(sc->find("iterations")->as_int(), 1);
  EXPECT_TRUE(sc->find("data")->find("name")->is_string());
  EXPECT_EQ(sc->find("usage"), nullptr) << "only the fields an agent acts on";
  EXPECT_EQ(*ParseJson(result->find("content")->as_array()[0].find("text")->as_string()), *sc);
  EXPECT_EQ(sc->find("evidence"), nullptr) << "evidence is off by default";
}

TEST_F(McpServerTest, EvidenceReportAddsEvidenceAndUngrounded) {
  Json r = One(
      std::string(
          R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"structure","arguments":{"prompt":"Mike, priority 2","evidence":"report","schema":)") +
      testing::kTicketSchema + "}}}");
  const Json* sc =
      r.find("result") != nullptr ? r.find("result")->find("structuredContent") : nullptr;
  ASSERT_NE(sc, nullptr) << ToJson(r);
  EXPECT_EQ(sc->find("status")->as_string(), "ok");
  ASSERT_NE(sc->find("evidence"), nullptr) << ToJson(*sc);
  EXPECT_TRUE(sc->find("evidence")->is_object());
  EXPECT_TRUE(sc->find("ungrounded")->is_array());
}

TEST_F(McpServerTest, StaleIsAResultAndBadArgumentsAreToolErrors) {
  Json stale = One(
      std::string(
          R"({"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"structure","arguments":{"prompt":"CASE-STALE Mike","maxLoops":1,"schema":)") +
      testing::kTicketSchema + "}}}");
  const Json* sc = stale.find("result")->find("structuredContent");
  ASSERT_NE(sc, nullptr) << ToJson(stale);
  EXPECT_EQ(sc->find("status")->as_string(), "stale");
  EXPECT_EQ(ToJson(*sc->find("errors")), R"J(["/priority: value must be <= 5 (was 9)"])J");

  Json bad = One(
      R"({"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"structure","arguments":{"prompt":"x","schema":{},"maxLoops":11}}})");
  EXPECT_TRUE(bad.find("result")->find("isError")->as_bool());
  EXPECT_NE(ToJson(bad).find("maxLoops"), std::string::npos) << ToJson(bad);

  Json unknown = One(
      R"({"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"structure","arguments":{"prompt":"x","schema":"no-such-schema","schemaMode":"named"}}})");
  EXPECT_TRUE(unknown.find("result")->find("isError")->as_bool());
  EXPECT_NE(ToJson(unknown).find("unknown_schema"), std::string::npos) << ToJson(unknown);
}

TEST_F(McpServerTest, PerRequestSettingsAreArgumentsOfTheTool) {
  Json bad = One(
      R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"structure","arguments":{"prompt":"x","schema":"a name","schemaMode":"text","confidenceThreshold":7}}})");
  EXPECT_TRUE(bad.find("result")->find("isError")->as_bool());
  EXPECT_NE(ToJson(bad).find("confidenceThreshold: must be a number 0..1 (was 7)"),
            std::string::npos)
      << ToJson(bad);
  Json strict = One(
      R"({"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"structure","arguments":{"prompt":"x","schema":{},"requireProviderStrictOutput":"yes"}}})");
  EXPECT_NE(ToJson(strict).find("requireProviderStrictOutput: must be true or false"),
            std::string::npos)
      << ToJson(strict);
  Json ok = One(
      std::string(
          R"({"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"structure","arguments":{"prompt":"Mike, priority 2","requireProviderStrictOutput":false,"schema":)") +
      testing::kTicketSchema + "}}}");
  EXPECT_FALSE(ok.find("result")->find("isError")->as_bool()) << ToJson(ok);
}

TEST_F(McpServerTest, ListSchemasShowsBundledSchemas) {
  Json r = One(
      R"({"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"list_schemas","arguments":{}}})");
  std::string text = ToJson(r);
  EXPECT_NE(text.find(R"("name":"contact")"), std::string::npos) << text;
  EXPECT_NE(text.find(R"("origin":"registry:bundled")"), std::string::npos) << text;
}

// A NUL in a line: fgets + string += stopped at the NUL and lost the newline, so the next
// message was glued to the bad line and never answered.
TEST_F(McpServerTest, ALineWithANulIsAParseErrorAndTheNextLineIsAnswered) {
  std::string in = std::string(R"({"jsonrpc":"2.0","id":1,"method":"ping")") + '\0' + "}\n" +
                   R"({"jsonrpc":"2.0","id":2,"method":"ping"})" + "\r\n" +
                   std::string("\0\0\n", 3) +
                   R"({"jsonrpc":"2.0","id":3,"method":"ping"})";  // no final newline
  auto answers = RunOn(*server_, in);
  ASSERT_EQ(answers.size(), 4u);
  EXPECT_EQ(answers[0].find("error")->find("code")->as_int(), -32700);
  EXPECT_TRUE(answers[0].find("id")->is_null());
  EXPECT_NE(answers[0].find("error")->find("message")->as_string().find("NUL byte at byte 39"),
            std::string::npos)
      << ToJson(answers[0]);
  EXPECT_EQ(answers[1].find("id")->as_int(), 2);
  EXPECT_NE(answers[1].find("result"), nullptr) << ToJson(answers[1]);
  EXPECT_NE(answers[2].find("error")->find("message")->as_string().find("NUL byte at byte 0"),
            std::string::npos);
  EXPECT_EQ(answers[3].find("id")->as_int(), 3);
}

TEST_F(McpServerTest, ALineOverTheLimitIsAParseErrorAndIsNotKept) {
  McpOptions options;
  options.max_line_bytes = 100;
  McpServer small(*engine_, options, [this](const std::string& m) {
    std::lock_guard<std::mutex> lock(mu_);
    out_.push_back(m);
  });
  std::string in = R"({"jsonrpc":"2.0","id":1,"method":"ping","pad":")" + std::string(5000, 'x') +
                   "\"}\n" + R"({"jsonrpc":"2.0","id":2,"method":"ping"})" + "\n" +
                   std::string(101, 'y');
  auto answers = RunOn(small, in);
  ASSERT_EQ(answers.size(), 3u);
  EXPECT_EQ(answers[0].find("error")->find("code")->as_int(), -32700);
  EXPECT_NE(ToJson(answers[0]).find("longer than 100 bytes"), std::string::npos)
      << ToJson(answers[0]);
  EXPECT_EQ(answers[1].find("id")->as_int(), 2);
  EXPECT_EQ(answers[2].find("error")->find("code")->as_int(), -32700);
}

}  // namespace
}  // namespace structure::mcp
