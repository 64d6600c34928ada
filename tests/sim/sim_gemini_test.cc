// Gemini generateContent over real HTTP: documented request shapes, response shapes and errors.
#include <gtest/gtest.h>

#include "tests/sim/sim_test_client.h"

namespace structure::sim {
namespace {

using testing::GeminiHeaders;
using testing::Post;
using testing::TestJson;

constexpr const char* kPath = "/v1beta/models/gemini-2.5-flash:generateContent";

void ExpectGeminiError(const testing::HttpReply& r, long status, const std::string& code) {
  EXPECT_EQ(r.status, status) << r.body;
  const Json* err = r.json.find("error");
  ASSERT_NE(err, nullptr) << r.body;
  EXPECT_EQ(err->find("code")->as_int(), status);
  EXPECT_EQ(err->find("status")->as_string(), code);
  EXPECT_TRUE(err->find("message")->is_string());
}

const Json& Candidate(const Json& body) { return body.find("candidates")->as_array().at(0); }

TEST(SimGeminiTest, AnswersResponseJsonSchemaWithCandidateText) {
  auto sim = testing::StartSim();
  auto r = Post(sim->port(), kPath, GeminiHeaders(), ToJson(TestJson("gemini_json_schema.json")));
  ASSERT_EQ(r.status, 200) << r.body;
  const Json& c = Candidate(r.json);
  EXPECT_EQ(c.find("finishReason")->as_string(), "STOP");
  EXPECT_EQ(c.find("index")->as_int(), 0);
  EXPECT_EQ(c.find("content")->find("role")->as_string(), "model");
  auto data =
      ParseJson(c.find("content")->find("parts")->as_array().at(0).find("text")->as_string());
  ASSERT_TRUE(data.ok());
  EXPECT_TRUE(data->find("recipe_name")->is_string());
  EXPECT_GE(data->find("ingredients")->size(), 1u);
  // Gemini 2.5 thinks by default; its thoughts count in the total.
  const Json& u = *r.json.find("usageMetadata");
  EXPECT_EQ(u.find("totalTokenCount")->as_int(), u.find("promptTokenCount")->as_int() +
                                                     u.find("candidatesTokenCount")->as_int() +
                                                     u.find("thoughtsTokenCount")->as_int());
  EXPECT_GT(u.find("thoughtsTokenCount")->as_int(), 0);
  EXPECT_EQ(r.json.find("modelVersion")->as_string(), "gemini-2.5-flash");
}

TEST(SimGeminiTest, AcceptsKeyInQueryAndLegacyResponseSchema) {
  auto sim = testing::StartSim();
  auto r = Post(sim->port(), std::string(kPath) + "?key=AIza-query", {},
                ToJson(TestJson("gemini_response_schema.json")));
  ASSERT_EQ(r.status, 200) << r.body;
  auto data = ParseJson(
      Candidate(r.json).find("content")->find("parts")->as_array().at(0).find("text")->as_string());
  ASSERT_TRUE(data.ok());
  EXPECT_TRUE(data->is_array());
}

TEST(SimGeminiTest, RejectsUnknownFieldInLegacyResponseSchemaWith400) {
  auto sim = testing::StartSim();
  auto r =
      Post(sim->port(), kPath, GeminiHeaders(), ToJson(TestJson("gemini_legacy_rejected.json")));
  ExpectGeminiError(r, 400, "INVALID_ARGUMENT");
  EXPECT_NE(r.json.find("error")->find("message")->as_string().find("additionalProperties"),
            std::string::npos);
}

TEST(SimGeminiTest, RejectsUnknownTopLevelFieldAndMissingKey) {
  auto sim = testing::StartSim();
  Json req = TestJson("gemini_json_schema.json");
  req.set("response_format", Json::MakeObject());
  auto r = Post(sim->port(), kPath, GeminiHeaders(), ToJson(req));
  ExpectGeminiError(r, 400, "INVALID_ARGUMENT");
  EXPECT_NE(
      r.json.find("error")->find("message")->as_string().find("Unknown name \"response_format\""),
      std::string::npos);
  ExpectGeminiError(Post(sim->port(), kPath, {}, ToJson(TestJson("gemini_json_schema.json"))), 403,
                    "PERMISSION_DENIED");
}

TEST(SimGeminiTest, AnswersFunctionCallingModeAnyWithFunctionCall) {
  auto sim = testing::StartSim();
  auto r = Post(sim->port(), kPath, GeminiHeaders(), ToJson(TestJson("gemini_tools.json")));
  ASSERT_EQ(r.status, 200) << r.body;
  const Json& part = Candidate(r.json).find("content")->find("parts")->as_array().at(0);
  const Json* call = part.find("functionCall");
  ASSERT_NE(call, nullptr) << r.body;
  EXPECT_EQ(call->find("name")->as_string(), "schedule_meeting");
  EXPECT_TRUE(call->find("args")->find("attendees")->is_array());
}

TEST(SimGeminiTest, RejectsAPartWithEmptyTextLikeTheApi) {
  auto sim = testing::StartSim();
  Json req = TestJson("gemini_json_schema.json");
  Json& contents = req["contents"];
  contents.push_back(*ParseJson(R"({"role":"model","parts":[{"text":""}]})"));
  contents.push_back(*ParseJson(R"({"role":"user","parts":[{"text":"Again, please."}]})"));
  auto r = Post(sim->port(), kPath, GeminiHeaders(), ToJson(req));
  ExpectGeminiError(r, 400, "INVALID_ARGUMENT");
  EXPECT_NE(r.json.find("error")->find("message")->as_string().find(
                "contents[1].parts[0].data: required oneof field 'data' must have one initialized "
                "field"),
            std::string::npos)
      << r.body;
}

TEST(SimGeminiTest, ReportsSafetyAndMaxTokensFinishReasons) {
  SimOptions options;
  options.scenario.content.refusal = 1.0;
  auto sim = testing::StartSim(options);
  auto r = Post(sim->port(), kPath, GeminiHeaders(), ToJson(TestJson("gemini_json_schema.json")));
  ASSERT_EQ(r.status, 200) << r.body;
  EXPECT_EQ(Candidate(r.json).find("finishReason")->as_string(), "SAFETY");
  EXPECT_EQ(Candidate(r.json).find("content"), nullptr);

  auto plain = testing::StartSim();
  Json req = TestJson("gemini_json_schema.json");
  (*req.find("generationConfig")).set("maxOutputTokens", 2);
  auto cut = Post(plain->port(), kPath, GeminiHeaders(), ToJson(req));
  ASSERT_EQ(cut.status, 200) << cut.body;
  EXPECT_EQ(Candidate(cut.json).find("finishReason")->as_string(), "MAX_TOKENS");
}

}  // namespace
}  // namespace structure::sim
