// OpenAI chat completions over real HTTP: documented request shapes in, documented response
// shapes out, and the provider's 400/401 error bodies.
#include <gtest/gtest.h>

#include "tests/sim/sim_test_client.h"

namespace structure::sim {
namespace {

using testing::OpenAiHeaders;
using testing::Post;
using testing::TestJson;

constexpr const char* kPath = "/v1/chat/completions";

void ExpectOpenAiError(const testing::HttpReply& r, long status, const std::string& type) {
  EXPECT_EQ(r.status, status) << r.body;
  const Json* err = r.json.find("error");
  ASSERT_NE(err, nullptr) << r.body;
  ASSERT_TRUE(err->find("message") && err->find("message")->is_string());
  EXPECT_EQ(err->find("type")->as_string(), type);
  EXPECT_TRUE(err->contains("param"));
  EXPECT_TRUE(err->contains("code"));
}

const Json& Message(const Json& body) {
  return *body.find("choices")->as_array().at(0).find("message");
}

TEST(SimOpenAiTest, AnswersJsonSchemaRequestWithChatCompletionShape) {
  auto sim = testing::StartSim();
  auto r = Post(sim->port(), kPath, OpenAiHeaders(), ToJson(TestJson("openai_json_schema.json")));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers["content-type"], "application/json");
  EXPECT_FALSE(r.headers["x-request-id"].empty());
  const Json& b = r.json;
  EXPECT_EQ(b.find("id")->as_string().rfind("chatcmpl-", 0), 0u);
  EXPECT_EQ(b.find("object")->as_string(), "chat.completion");
  EXPECT_TRUE(b.find("created")->is_int());
  EXPECT_EQ(b.find("model")->as_string(), "gpt-4o-2024-08-06");
  const Json& choice = b.find("choices")->as_array().at(0);
  EXPECT_EQ(choice.find("index")->as_int(), 0);
  EXPECT_EQ(choice.find("finish_reason")->as_string(), "stop");
  const Json& m = Message(b);
  EXPECT_EQ(m.find("role")->as_string(), "assistant");
  EXPECT_TRUE(m.find("refusal")->is_null());
  auto content = ParseJson(m.find("content")->as_string());
  ASSERT_TRUE(content.ok()) << m.find("content")->as_string();
  EXPECT_TRUE(content->find("name")->is_string());
  EXPECT_TRUE(content->find("date")->is_string());
  EXPECT_TRUE(content->find("participants")->is_array());
  EXPECT_EQ(content->size(), 3u);
  const Json& u = *b.find("usage");
  EXPECT_GT(u.find("prompt_tokens")->as_int(), 0);
  EXPECT_GT(u.find("completion_tokens")->as_int(), 0);
  EXPECT_EQ(u.find("total_tokens")->as_int(),
            u.find("prompt_tokens")->as_int() + u.find("completion_tokens")->as_int());
}

TEST(SimOpenAiTest, AnswersRequiredToolChoiceWithToolCall) {
  auto sim = testing::StartSim();
  auto r = Post(sim->port(), kPath, OpenAiHeaders(), ToJson(TestJson("openai_tools.json")));
  ASSERT_EQ(r.status, 200) << r.body;
  const Json& m = Message(r.json);
  EXPECT_TRUE(m.find("content")->is_null());
  const Json& call = m.find("tool_calls")->as_array().at(0);
  EXPECT_EQ(call.find("id")->as_string().rfind("call_", 0), 0u);
  EXPECT_EQ(call.find("type")->as_string(), "function");
  EXPECT_EQ(call.find("function")->find("name")->as_string(), "get_weather");
  auto args = ParseJson(call.find("function")->find("arguments")->as_string());
  ASSERT_TRUE(args.ok());
  EXPECT_TRUE(args->find("latitude")->is_number());
  EXPECT_TRUE(args->find("longitude")->is_number());
  EXPECT_EQ(r.json.find("choices")->as_array()[0].find("finish_reason")->as_string(), "tool_calls");
}

TEST(SimOpenAiTest, AnswersJsonObjectModeWithAnObject) {
  auto sim = testing::StartSim();
  auto r = Post(sim->port(), kPath, OpenAiHeaders(), ToJson(TestJson("openai_json_object.json")));
  ASSERT_EQ(r.status, 200) << r.body;
  auto content = ParseJson(Message(r.json).find("content")->as_string());
  ASSERT_TRUE(content.ok());
  EXPECT_TRUE(content->is_object());
}

TEST(SimOpenAiTest, RejectsJsonObjectModeWithoutTheWordJson) {
  auto sim = testing::StartSim();
  Json req = TestJson("openai_json_object.json");
  req["messages"] = ParseJson(R"([{"role":"user","content":"Who won in 2020?"}])").value();
  auto r = Post(sim->port(), kPath, OpenAiHeaders(), ToJson(req));
  ExpectOpenAiError(r, 400, "invalid_request_error");
  EXPECT_NE(r.json.find("error")->find("message")->as_string().find("must contain the word 'json'"),
            std::string::npos);
}

TEST(SimOpenAiTest, RejectsStrictSchemaTheProviderWouldRejectWith400) {
  auto sim = testing::StartSim();
  auto r =
      Post(sim->port(), kPath, OpenAiHeaders(), ToJson(TestJson("openai_strict_rejected.json")));
  ExpectOpenAiError(r, 400, "invalid_request_error");
  EXPECT_EQ(r.json.find("error")->find("message")->as_string().rfind(
                "Invalid schema for response_format 'person': ", 0),
            0u)
      << r.body;
  auto stats = testing::Get(sim->port(), "/stats");
  EXPECT_EQ(stats.json.find("faults")->find("schema_rejected")->as_int(), 1);
}

TEST(SimOpenAiTest, RejectsStrictToolSchemaWith400) {
  auto sim = testing::StartSim();
  Json req = TestJson("openai_tools.json");
  Json& fn = *req.find("tools")->as_array()[0].find("function");
  fn.find("parameters")->erase("additionalProperties");
  auto r = Post(sim->port(), kPath, OpenAiHeaders(), ToJson(req));
  ExpectOpenAiError(r, 400, "invalid_request_error");
  EXPECT_NE(r.json.find("error")->find("message")->as_string().find("function 'get_weather'"),
            std::string::npos);
}

// Chat completions without a key are answered, as a local OpenAI-compatible server answers them;
// a key declared invalid is refused as OpenAI refuses it.
TEST(SimOpenAiTest, AnswersWithoutAKeyAndRejectsDeclaredInvalidKeys) {
  SimOptions options;
  options.scenario.keys.invalid_keys.insert("sk-revoked-1234");
  auto sim = testing::StartSim(options);
  std::string body = ToJson(TestJson("openai_json_object.json"));
  auto keyless = Post(sim->port(), kPath, {}, body);
  EXPECT_EQ(keyless.status, 200) << keyless.body;
  auto bad = Post(sim->port(), kPath, {"Authorization: Bearer sk-revoked-1234"}, body);
  ExpectOpenAiError(bad, 401, "invalid_request_error");
  EXPECT_EQ(bad.json.find("error")->find("code")->as_string(), "invalid_api_key");
  EXPECT_EQ(bad.body.find("sk-revoked-1234"), std::string::npos) << "key must be masked";
}

TEST(SimOpenAiTest, RejectsMalformedRequestsLikeTheProvider) {
  auto sim = testing::StartSim();
  ExpectOpenAiError(Post(sim->port(), kPath, OpenAiHeaders(), "{not json"), 400,
                    "invalid_request_error");
  ExpectOpenAiError(Post(sim->port(), kPath, OpenAiHeaders(), R"({"messages":[]})"), 400,
                    "invalid_request_error");
  ExpectOpenAiError(Post(sim->port(), kPath, OpenAiHeaders(), R"({"model":"m"})"), 400,
                    "invalid_request_error");
  ExpectOpenAiError(Post(sim->port(), kPath, OpenAiHeaders(),
                         R"({"model":"m","messages":[{"role":"robot","content":"x"}]})"),
                    400, "invalid_request_error");
}

TEST(SimOpenAiTest, CutsAnswerAtMaxTokensWithFinishReasonLength) {
  auto sim = testing::StartSim();
  Json req = TestJson("openai_json_schema.json");
  req.set("max_completion_tokens", 2);
  auto r = Post(sim->port(), kPath, OpenAiHeaders(), ToJson(req));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json.find("choices")->as_array()[0].find("finish_reason")->as_string(), "length");
  EXPECT_FALSE(ParseJson(Message(r.json).find("content")->as_string()).ok());
  EXPECT_EQ(r.json.find("usage")->find("completion_tokens")->as_int(), 2);
}

}  // namespace
}  // namespace structure::sim
