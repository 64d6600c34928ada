// Ollama /api/chat over real HTTP: documented request shapes (streaming and not) and errors.
#include <gtest/gtest.h>

#include "tests/sim/sim_test_client.h"

namespace structure::sim {
namespace {

using testing::Post;
using testing::TestJson;

TEST(SimOllamaTest, AnswersFormatSchemaWithChatResponse) {
  auto sim = testing::StartSim();
  auto r = Post(sim->port(), "/api/chat", {}, ToJson(TestJson("ollama_format.json")));
  ASSERT_EQ(r.status, 200) << r.body;
  const Json& b = r.json;
  EXPECT_EQ(b.find("model")->as_string(), "llama3.1");
  EXPECT_TRUE(b.find("created_at")->is_string());
  EXPECT_EQ(b.find("message")->find("role")->as_string(), "assistant");
  auto data = ParseJson(b.find("message")->find("content")->as_string());
  ASSERT_TRUE(data.ok());
  EXPECT_TRUE(data->find("age")->is_int());
  EXPECT_TRUE(data->find("available")->is_bool());
  EXPECT_TRUE(b.find("done")->as_bool());
  EXPECT_EQ(b.find("done_reason")->as_string(), "stop");
  EXPECT_GT(b.find("prompt_eval_count")->as_int(), 0);
  EXPECT_GT(b.find("eval_count")->as_int(), 0);
}

TEST(SimOllamaTest, StreamsNdjsonByDefault) {
  auto sim = testing::StartSim();
  auto r = Post(sim->port(), "/api/chat", {}, ToJson(TestJson("ollama_stream.json")));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.headers["content-type"], "application/x-ndjson");
  size_t nl = r.body.find('\n');
  ASSERT_NE(nl, std::string::npos);
  auto first = ParseJson(r.body.substr(0, nl));
  auto last = ParseJson(r.body.substr(nl + 1));
  ASSERT_TRUE(first.ok() && last.ok()) << r.body;
  EXPECT_FALSE(first->find("done")->as_bool());
  EXPECT_FALSE(first->find("message")->find("content")->as_string().empty());
  EXPECT_TRUE(last->find("done")->as_bool());
  EXPECT_EQ(last->find("done_reason")->as_string(), "stop");
}

TEST(SimOllamaTest, ReportsLengthWhenNumPredictCuts) {
  auto sim = testing::StartSim();
  Json req = TestJson("ollama_format.json");
  (*req.find("options")).set("num_predict", 1);
  auto r = Post(sim->port(), "/api/chat", {}, ToJson(req));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(r.json.find("done_reason")->as_string(), "length");
}

TEST(SimOllamaTest, RejectsMissingModelWithErrorString) {
  auto sim = testing::StartSim();
  auto r = Post(sim->port(), "/api/chat", {}, R"({"messages":[]})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.json.find("error")->as_string(), "model is required");
}

}  // namespace
}  // namespace structure::sim
