// Generative answers and injected faults (content and transport), enforced rate limits,
// latency and determinism, decided without sockets through Simulator::Decide.
#include <gtest/gtest.h>

#include "sim/simulator.h"

namespace structure::sim {
namespace {

constexpr const char* kSchema =
    R"({"type":"object","properties":{"p":{"type":"integer","minimum":1,"maximum":5},)"
    R"("t":{"type":"string","enum":["a","b"]}},"required":["p","t"],"additionalProperties":false})";

http::HttpRequest OpenAi(const std::string& schema = kSchema,
                         const std::string& prompt = "rate it") {
  http::HttpRequest r;
  r.method = "POST";
  r.path = "/v1/chat/completions";
  r.headers = {{"Authorization", "Bearer sk-test"}};
  r.body = R"({"model":"gpt-4o","messages":[{"role":"user","content":")" + prompt +
           R"("}],"response_format":{"type":"json_schema","json_schema":{"name":"x","schema":)" +
           schema + "}}}";
  return r;
}

http::HttpRequest Anthropic() {
  http::HttpRequest r;
  r.method = "POST";
  r.path = "/v1/messages";
  r.headers = {{"x-api-key", "k"}, {"anthropic-version", "2023-06-01"}};
  r.body = R"({"model":"claude","max_tokens":100,"messages":[{"role":"user","content":"hi"}]})";
  return r;
}

http::HttpRequest Gemini() {
  http::HttpRequest r;
  r.method = "POST";
  r.path = "/v1beta/models/gemini-2.5-pro:generateContent";
  r.headers = {{"x-goog-api-key", "k"}};
  r.body = R"({"contents":[{"role":"user","parts":[{"text":"hi"}]}]})";
  return r;
}

Json Body(const Simulator::Outcome& o) {
  auto parsed = ParseJson(o.response.body);
  return parsed.ok() ? *parsed : Json();
}

const Json& Message(const Json& body) {
  return *body.find("choices")->as_array()[0].find("message");
}

std::string Content(const Simulator::Outcome& o) {
  Json body = Body(o);
  const Json* c = Message(body).find("content");
  return c && c->is_string() ? c->as_string() : "";
}

Simulator WithContentFault(double ContentFaults::*field, uint64_t seed = 1) {
  SimOptions options;
  options.seed = seed;
  options.scenario.content.*field = 1.0;
  return Simulator(std::move(options));
}

bool ValidAgainstKSchema(const Json& v) {
  if (!v.is_object() || v.size() != 2) return false;
  const Json* p = v.find("p");
  const Json* t = v.find("t");
  return p && p->is_int() && p->as_int() >= 1 && p->as_int() <= 5 && t && t->is_string() &&
         (t->as_string() == "a" || t->as_string() == "b");
}

TEST(FaultsTest, GeneratesSchemaValidObjectsWithoutFaults) {
  Simulator sim{SimOptions{}};
  for (int i = 0; i < 20; ++i) {
    auto parsed = ParseJson(Content(sim.Decide(OpenAi(kSchema, "n" + std::to_string(i)))));
    ASSERT_TRUE(parsed.ok());
    EXPECT_TRUE(ValidAgainstKSchema(*parsed)) << ToJson(*parsed);
  }
}

TEST(FaultsTest, InvalidFaultBreaksExactlyTheSchema) {
  Simulator sim = WithContentFault(&ContentFaults::invalid);
  for (int i = 0; i < 20; ++i) {
    auto parsed = ParseJson(Content(sim.Decide(OpenAi(kSchema, "n" + std::to_string(i)))));
    ASSERT_TRUE(parsed.ok()) << "an invalid answer is still JSON";
    EXPECT_FALSE(ValidAgainstKSchema(*parsed)) << ToJson(*parsed);
  }
  EXPECT_EQ(sim.stats().ToJson().find("faults")->find("invalid")->as_int(), 20);
}

TEST(FaultsTest, NeedFaultUsesTheNeedFormTheRequestOffers) {
  Simulator sim = WithContentFault(&ContentFaults::need);
  auto plain = ParseJson(Content(sim.Decide(OpenAi()))).value();
  EXPECT_TRUE(plain.find("_need")->is_string());
  EXPECT_EQ(plain.size(), 1u);

  std::string any_of =
      R"({"anyOf":[)" + std::string(kSchema) +
      R"(,{"type":"object","properties":{"_need":{"type":"string"}},"required":["_need"]}]})";
  auto branch = ParseJson(Content(sim.Decide(OpenAi(any_of)))).value();
  EXPECT_TRUE(branch.find("_need")->is_string()) << ToJson(branch);

  std::string envelope =
      R"({"type":"object","properties":{"result":{"anyOf":[)" + std::string(kSchema) +
      R"(,{"type":"null"}]},"_need":{"type":["string","null"]}},"required":["result","_need"],"additionalProperties":false})";
  auto env = ParseJson(Content(sim.Decide(OpenAi(envelope)))).value();
  EXPECT_TRUE(env.find("_need")->is_string()) << ToJson(env);
  EXPECT_TRUE(env.find("result")->is_null()) << ToJson(env);

  Simulator clean{SimOptions{}};
  for (int i = 0; i < 10; ++i) {
    auto answer = ParseJson(Content(clean.Decide(OpenAi(envelope, std::to_string(i))))).value();
    EXPECT_TRUE(answer.find("_need")->is_null()) << ToJson(answer);
    EXPECT_TRUE(ValidAgainstKSchema(*answer.find("result"))) << ToJson(answer);
    auto b = ParseJson(Content(clean.Decide(OpenAi(any_of, std::to_string(i))))).value();
    EXPECT_TRUE(ValidAgainstKSchema(b)) << "a clean answer never takes the need branch";
  }
}

TEST(FaultsTest, NeedFaultCallsTheNeedToolWhenOffered) {
  http::HttpRequest r = Anthropic();
  r.body = R"({"model":"claude","max_tokens":200,"messages":[{"role":"user","content":"hi"}],)"
           R"("tools":[{"name":"submit","input_schema":)" +
           std::string(kSchema) +
           R"(},)"
           R"({"name":"need_more_input","input_schema":{"type":"object","properties":)"
           R"({"_need":{"type":"string"}},"required":["_need"]}}],"tool_choice":{"type":"any"}})";
  auto need = Body(WithContentFault(&ContentFaults::need).Decide(r));
  const Json& block = need.find("content")->as_array().at(0);
  EXPECT_EQ(block.find("name")->as_string(), "need_more_input");
  EXPECT_TRUE(block.find("input")->find("_need")->is_string());
  Simulator clean{SimOptions{}};
  auto answer = Body(clean.Decide(r));
  const Json& call = answer.find("content")->as_array().at(0);
  EXPECT_EQ(call.find("name")->as_string(), "submit");
  EXPECT_TRUE(ValidAgainstKSchema(*call.find("input")));
}

TEST(FaultsTest, TextFaultsShapeTheContent) {
  std::string prose = Content(WithContentFault(&ContentFaults::prose).Decide(OpenAi()));
  EXPECT_NE(prose.find("```json\n{"), std::string::npos);
  EXPECT_NE(prose.find("\n```\n\n"), std::string::npos);
  std::string fence = Content(WithContentFault(&ContentFaults::fence).Decide(OpenAi()));
  EXPECT_EQ(fence.rfind("```json\n", 0), 0u);
  for (uint64_t seed = 1; seed <= 6; ++seed) {
    std::string bad = Content(WithContentFault(&ContentFaults::malformed, seed).Decide(OpenAi()));
    EXPECT_FALSE(ParseJson(bad).ok()) << bad;
  }
  auto cut = Body(WithContentFault(&ContentFaults::truncated).Decide(OpenAi()));
  EXPECT_EQ(cut.find("choices")->as_array()[0].find("finish_reason")->as_string(), "length");
  auto refused = Body(WithContentFault(&ContentFaults::refusal).Decide(OpenAi()));
  EXPECT_TRUE(Message(refused).find("refusal")->is_string());
  auto anthropic = Body(WithContentFault(&ContentFaults::refusal).Decide(Anthropic()));
  EXPECT_EQ(anthropic.find("stop_reason")->as_string(), "refusal");
}

TEST(FaultsTest, Injected429CarriesTheConfiguredRetryHint) {
  struct Case {
    RetryHint hint;
    const char* header;  // expected present (nullptr: none of them)
  };
  const Case cases[] = {{RetryHint::kRetryAfter, "retry-after"},
                        {RetryHint::kRetryAfterMs, "retry-after-ms"},
                        {RetryHint::kRateLimitHeaders, "x-ratelimit-reset-requests"},
                        {RetryHint::kNone, nullptr}};
  for (const auto& c : cases) {
    SimOptions options;
    options.scenario.transport.http429 = 1.0;
    options.scenario.transport.hint429 = c.hint;
    options.scenario.transport.retry_after_s = 2;
    Simulator sim(std::move(options));
    auto o = sim.Decide(OpenAi());
    EXPECT_EQ(o.response.status, 429);
    EXPECT_EQ(Body(o).find("error")->find("code")->as_string(), "rate_limit_exceeded");
    for (const char* h : {"retry-after", "retry-after-ms", "x-ratelimit-reset-requests"}) {
      bool want = c.header && std::string(c.header) == h;
      EXPECT_EQ(o.response.FindHeader(h) != nullptr, want) << h;
    }
    if (c.hint == RetryHint::kRetryAfterMs) {
      EXPECT_EQ(*o.response.FindHeader("retry-after-ms"), "2000");
    }
    EXPECT_EQ(sim.stats().ToJson().find("faults")->find("http429")->as_int(), 1);
  }
}

TEST(FaultsTest, InjectsServerErrorsResetsAndSlowBodies) {
  SimOptions e;
  e.scenario.transport.http5xx = 1.0;
  Simulator errors(std::move(e));
  auto o = errors.Decide(Anthropic());
  EXPECT_TRUE(o.response.status == 500 || o.response.status == 529);
  std::string type = Body(o).find("error")->find("type")->as_string();
  EXPECT_TRUE(type == "api_error" || type == "overloaded_error") << type;

  SimOptions r;
  r.scenario.transport.reset = 1.0;
  EXPECT_TRUE(Simulator(std::move(r)).Decide(OpenAi()).response.delivery.reset);

  SimOptions s;
  s.scenario.transport.slow = 1.0;
  auto slow = Simulator(std::move(s)).Decide(OpenAi());
  EXPECT_EQ(slow.response.status, 200);
  EXPECT_GT(slow.response.delivery.chunk_bytes, 0u);
  EXPECT_GT(slow.response.delivery.chunk_delay.count(), 0);
}

TEST(FaultsTest, EnforcesRequestsPerMinuteLikeTheProvider) {
  SimOptions options;
  options.scenario.rpm = 2;
  Simulator sim(std::move(options));
  EXPECT_EQ(sim.Decide(OpenAi()).response.status, 200);
  auto second = sim.Decide(OpenAi());
  EXPECT_EQ(second.response.status, 200);
  EXPECT_EQ(*second.response.FindHeader("x-ratelimit-limit-requests"), "2");
  EXPECT_EQ(*second.response.FindHeader("x-ratelimit-remaining-requests"), "0");
  auto third = sim.Decide(OpenAi());
  EXPECT_EQ(third.response.status, 429);
  EXPECT_NE(third.response.FindHeader("retry-after"), nullptr);
  EXPECT_NE(third.response.FindHeader("x-ratelimit-reset-requests"), nullptr);
  EXPECT_EQ(Body(third).find("error")->find("type")->as_string(), "requests");

  auto anthropic = sim.Decide(Anthropic());  // each provider has its own bucket
  EXPECT_EQ(anthropic.response.status, 200);
  EXPECT_EQ(sim.stats().ToJson().find("rate_limited")->as_int(), 1);
}

TEST(FaultsTest, EnforcesTokensPerMinuteInEachProvidersShape) {
  SimOptions options;
  options.scenario.tpm = 5;  // smaller than any request here
  Simulator sim(std::move(options));
  auto openai = sim.Decide(OpenAi());
  EXPECT_EQ(openai.response.status, 429);
  EXPECT_EQ(Body(openai).find("error")->find("type")->as_string(), "tokens");
  auto anthropic = sim.Decide(Anthropic());
  EXPECT_EQ(anthropic.response.status, 429);
  EXPECT_EQ(Body(anthropic).find("error")->find("type")->as_string(), "rate_limit_error");
  EXPECT_NE(anthropic.response.FindHeader("retry-after"), nullptr);
  EXPECT_NE(anthropic.response.FindHeader("anthropic-ratelimit-tokens-limit"), nullptr);
  auto gemini = sim.Decide(Gemini());
  EXPECT_EQ(gemini.response.status, 429);
  const Json err = *Body(gemini).find("error");
  EXPECT_EQ(err.find("status")->as_string(), "RESOURCE_EXHAUSTED");
  EXPECT_EQ(err.find("details")->as_array()[0].find("@type")->as_string(),
            "type.googleapis.com/google.rpc.RetryInfo");
}

TEST(FaultsTest, SameSeedGivesSameAnswersAndLatencies) {
  auto run = [](uint64_t seed) {
    SimOptions options;
    options.seed = seed;
    options.latency = Latency::Parse("uniform:100,900").value();
    options.scenario.content.invalid = 0.5;
    Simulator sim(std::move(options));
    std::vector<std::string> out;
    for (int i = 0; i < 8; ++i) {
      auto o = sim.Decide(OpenAi(kSchema, "q" + std::to_string(i % 3)));
      EXPECT_GE(o.delay_ms, 100);
      EXPECT_LE(o.delay_ms, 900);
      out.push_back(Content(o) + "@" + std::to_string(o.delay_ms));
    }
    return out;
  };
  EXPECT_EQ(run(42), run(42));
  EXPECT_NE(run(42), run(43));
}

TEST(LatencyTest, ParsesDistributionsAndRejectsNonsense) {
  Rng rng(1);
  EXPECT_EQ(Latency::Parse("500").value().Sample(rng), 500);
  EXPECT_EQ(Latency::Parse("fixed:250").value().Sample(rng), 250);
  for (int i = 0; i < 100; ++i) {
    int v = Latency::Parse("uniform:10,20").value().Sample(rng);
    EXPECT_GE(v, 10);
    EXPECT_LE(v, 20);
    EXPECT_GE(Latency::Parse("lognormal:200,0.5").value().Sample(rng), 0);
  }
  for (const char* bad : {"", "fast", "uniform:5", "uniform:9,1", "lognormal:0,1", "fixed:-3"}) {
    EXPECT_FALSE(Latency::Parse(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace structure::sim
