// Scenario files: parsing errors that name the place, rule matching, replies per attempt and
// every scripted reply kind, decided without sockets through Simulator::Decide.
#include "sim/scenario.h"

#include <gtest/gtest.h>

#include "sim/simulator.h"
#include "tests/sim/sim_test_client.h"

namespace structure::sim {
namespace {

http::HttpRequest OpenAiRequest(const std::vector<std::pair<std::string, std::string>>& turns,
                                const std::string& extra = "") {
  Json messages = Json::MakeArray();
  for (const auto& [role, text] : turns) {
    Json m = Json::MakeObject();
    m.set("role", role);
    m.set("content", text);
    messages.push_back(std::move(m));
  }
  http::HttpRequest r;
  r.method = "POST";
  r.path = "/v1/chat/completions";
  r.headers = {{"Authorization", "Bearer sk-test"}};
  r.body = R"({"model":"gpt-4o","messages":)" + ToJson(messages) + extra + "}";
  return r;
}

Simulator MakeSim() {
  auto scenario = ParseScenario(testing::ReadTestData("scenario_retry.json"));
  EXPECT_TRUE(scenario.ok()) << scenario.status().ToString();
  SimOptions options;
  options.scenario = std::move(*scenario);
  return Simulator(std::move(options));
}

Json Body(const Simulator::Outcome& o) {
  auto parsed = ParseJson(o.response.body);
  EXPECT_TRUE(parsed.ok()) << o.response.body;
  return parsed.ok() ? *parsed : Json();
}

std::string Content(const Simulator::Outcome& o) {
  Json b = Body(o);
  const Json* c = b.find("choices")->as_array()[0].find("message")->find("content");
  return c->is_string() ? c->as_string() : "";
}

TEST(ScenarioTest, ScriptsInvalidFirstAndValidSecondByAttempt) {
  Simulator sim = MakeSim();
  auto first = sim.Decide(OpenAiRequest({{"user", "TICKET-1: the printer is on fire"}}));
  EXPECT_EQ(Content(first), R"({"priority":7,"title":"Printer on fire"})");
  auto second = sim.Decide(OpenAiRequest({{"user", "TICKET-1: the printer is on fire"},
                                          {"assistant", Content(first)},
                                          {"user", "- /priority: value must be <= 5 (was 7)"}}));
  EXPECT_EQ(Content(second), R"({"priority":5,"title":"Printer on fire"})");
  auto third = sim.Decide(OpenAiRequest({{"user", "TICKET-1"},
                                         {"assistant", "a"},
                                         {"user", "b"},
                                         {"assistant", "c"},
                                         {"user", "d"}}));
  EXPECT_EQ(Content(third), Content(second)) << "the last reply repeats";
  EXPECT_EQ(sim.stats().ToJson().find("rules")->find("ticket")->as_int(), 3);
}

TEST(ScenarioTest, ScriptsNeedProseTruncationRefusalAndToolCall) {
  Simulator sim = MakeSim();
  EXPECT_EQ(Content(sim.Decide(OpenAiRequest({{"user", "Book it. No date given."}}))),
            R"({"_need":"the meeting date"})");
  std::string prose = Content(sim.Decide(OpenAiRequest({{"user", "PROSE please"}})));
  EXPECT_EQ(prose.rfind("Sure! Here it is:", 0), 0u);
  EXPECT_NE(prose.find("```json\n{\n  \"ok\": true\n}\n```"), std::string::npos) << prose;

  auto cut = Body(sim.Decide(OpenAiRequest({{"user", "CUT"}})));
  EXPECT_EQ(cut.find("choices")->as_array()[0].find("finish_reason")->as_string(), "length");

  auto refused = Body(sim.Decide(OpenAiRequest({{"user", "REFUSE"}})));
  const Json& m = *refused.find("choices")->as_array()[0].find("message");
  EXPECT_TRUE(m.find("content")->is_null());
  EXPECT_EQ(m.find("refusal")->as_string(), "I can't help with that.");

  auto call = Body(sim.Decide(OpenAiRequest({{"user", "CALL"}})));
  const Json& tc = *call.find("choices")->as_array()[0].find("message")->find("tool_calls");
  EXPECT_EQ(tc.as_array()[0].find("function")->find("name")->as_string(), "lookup");

  EXPECT_FALSE(ParseJson(Content(sim.Decide(OpenAiRequest({{"user", "GARBLE"}})))).ok());
  EXPECT_TRUE(sim.Decide(OpenAiRequest({{"user", "RESET"}})).response.delivery.reset);
}

TEST(ScenarioTest, ScriptsHttpErrorWithHeadersThenSuccess) {
  Simulator sim = MakeSim();
  auto busy = sim.Decide(OpenAiRequest({{"user", "BUSY"}}));
  EXPECT_EQ(busy.response.status, 429);
  ASSERT_NE(busy.response.FindHeader("retry-after-ms"), nullptr);
  EXPECT_EQ(*busy.response.FindHeader("retry-after-ms"), "250");
  EXPECT_EQ(Body(busy).find("error")->find("message")->as_string(), "slow down");
  auto ok = sim.Decide(OpenAiRequest({{"user", "BUSY"}, {"assistant", "?"}, {"user", "again"}}));
  EXPECT_EQ(ok.response.status, 200);
}

TEST(ScenarioTest, MatchesRegexOnlyInTheChosenScope) {
  Simulator sim = MakeSim();
  // "missing" matches the last user message only: an earlier mention does not count.
  auto o =
      sim.Decide(OpenAiRequest({{"user", "no date given"}, {"assistant", "x"}, {"user", "fine"}}));
  EXPECT_EQ(Content(o).find("_need"), std::string::npos);
}

TEST(ScenarioTest, RejectsKeysTheScenarioDeclaresInvalid) {
  Simulator sim = MakeSim();
  auto r = OpenAiRequest({{"user", "hi"}});
  r.headers = {{"Authorization", "Bearer sk-revoked"}};
  EXPECT_EQ(sim.Decide(r).response.status, 401);
}

TEST(ScenarioTest, ReportsWhereAScenarioIsWrong) {
  struct Case {
    const char* text;
    const char* expected;
  };
  const Case cases[] = {
      {R"({"rules":[{"contains":"x"}]})", "rules[0]: a rule needs \"replies\""},
      {R"({"rules":[{"contains":"x","reply":{"jsn":{}}}]})", "rules[0].reply: no reply kind"},
      {R"({"rules":[{"regex":"(","reply":{"text":"a"}}]})", "rules[0].regex: bad regex"},
      {R"({"generate":{"invalid":2}})", "generate.invalid: expected a probability"},
      {R"({"transport":{"http429_hint":"soon"}})", "unknown retry hint"},
      {R"({"rules":[{"reply":{"error":{"status":200}}}]})",
       "error.status: expected an HTTP status"},
      {R"({"colour":1})", "unknown scenario field"},
      {R"([1])", "a scenario is a JSON object"},
  };
  for (const auto& c : cases) {
    auto s = ParseScenario(c.text, "s.json");
    ASSERT_FALSE(s.ok()) << c.text;
    EXPECT_NE(s.status().message().find(c.expected), std::string::npos)
        << c.text << " -> " << s.status().message();
  }
}

TEST(ScenarioTest, LoadsTheShippedExampleScenarios) {
  for (const char* name : {"retry_then_valid.json", "faults_mix.json", "rate_limited.json"}) {
    auto s = LoadScenario(std::string(STRUCTURE_SOURCE_DIR) + "/examples/scenarios/" + name);
    EXPECT_TRUE(s.ok()) << name << ": " << s.status().ToString();
  }
}

}  // namespace
}  // namespace structure::sim
