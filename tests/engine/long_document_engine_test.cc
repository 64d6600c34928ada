// Long documents (issue 45) through the library, against an in-process simulator of a model
// with an 8 192-token context that refuses longer requests with OpenAI's own error and answers
// faithfully (sim/faithful.h): a generated 300 KB invoice comes back as ONE object equal to its
// truth, with its evidence in whole-document offsets; the window learned from the one refusal
// serves the next call, which is never refused.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>

#include "base/json.h"
#include "sim/scenario.h"
#include "sim/sim_server.h"
#include "structure/engine.h"
#include "tests/server/http_client.h"
#include "tests/support/long_invoice.h"

namespace structure {
namespace {

class LongDocumentEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto scenario = sim::ParseScenario(testing::LongInvoiceScenario(8192));
    ASSERT_TRUE(scenario.ok()) << scenario.status().message();
    sim::SimOptions so;
    so.scenario = std::move(*scenario);
    auto server = sim::SimServer::Start(std::move(so), http::ServerOptions{});
    ASSERT_TRUE(server.ok()) << server.status().message();
    sim_ = std::move(*server);
    base_ = "http://127.0.0.1:" + std::to_string(sim_->port());
    auto cfg = Config::Parse(
        "[structure]\nmodel = \"openai\"\n[providers.openai]\nkind = \"openai\"\n"
        "model = \"long-context-8k\"\n[aliases]\n\"default:fast\" = \"openai\"\n",
        "long_document.toml");
    ASSERT_TRUE(cfg.ok()) << cfg.status().message();
    EngineOptions o;
    o.config = *cfg;
    o.base_url = base_;
    o.database = ":memory:";
    o.log = [](const std::string&) {};
    auto engine = Engine::Create(std::move(o));
    ASSERT_TRUE(engine.ok()) << engine.status().message();
    engine_ = std::move(*engine);
    invoice_ = testing::MakeLongInvoice(240);
  }

  StructureResult Run(const std::string& extra = "") {
    Json body = Json::MakeObject();
    body.set("prompt", invoice_.text);
    body.set("schema", *ParseJson(testing::LongInvoiceSchema()));
    body.set("evidence", "report");
    if (!extra.empty()) {
      auto more = ParseJson(extra);
      for (const auto& [k, v] : more->as_object()) body.set(k, v);
    }
    auto req = ParseRequest(body);
    EXPECT_TRUE(req.ok()) << req.status().message();
    return engine_->Run(*req);
  }

  int64_t Refusals() {
    auto stats = ParseJson(testing::Http("GET", base_ + "/stats").body);
    const Json* faults = stats.ok() ? stats->find("faults") : nullptr;
    const Json* n = faults ? faults->find("context_too_long") : nullptr;
    return n ? n->as_int() : 0;
  }

  void ExpectTheTruth(const StructureResult& r) {
    ASSERT_EQ(r.status, Outcome::kOk) << (r.errors.empty() ? r.need : r.errors[0]);
    EXPECT_TRUE(r.data == invoice_.truth) << ToJson(r.data).substr(0, 800);
    EXPECT_EQ(r.data.find("lineItems")->size(), 240u);
    EXPECT_GT(r.input_parts, 10);
    EXPECT_NE(r.mode_reason.find("overlapping parts"), std::string::npos) << r.mode_reason;
    // The currency: EUR at the top (part 1), USD in a remark at the end (the last part).
    ASSERT_EQ(r.conflicts.size(), 1u) << ToJson(r.conflicts);
    const Json& c = r.conflicts.as_array()[0];
    EXPECT_EQ(c.find("pointer")->as_string(), "/currency");
    EXPECT_EQ(ToJson(*c.find("values")), R"(["EUR","USD"])");
    EXPECT_EQ(ToJson(c.find("parts")->as_array()[0]), "[1]");
    EXPECT_EQ(c.find("parts")->as_array()[1].as_array().back().as_int(), r.input_parts);
    ASSERT_TRUE(r.evidence.is_object());
    EXPECT_EQ(r.evidence.size(), 240u * 3 + 4);
    for (const auto& [pointer, e] : r.evidence.as_object()) {
      auto b = static_cast<size_t>(e.find("byteStart")->as_int());
      auto x = static_cast<size_t>(e.find("byteEnd")->as_int());
      ASSERT_LE(x, invoice_.text.size()) << pointer;
      EXPECT_EQ(invoice_.text.substr(b, x - b), e.find("quote")->as_string()) << pointer;
    }
    // The real repeat: the same text quoted at two places far apart.
    auto at = [&](const char* p) { return r.evidence.find(p)->find("byteStart")->as_int(); };
    EXPECT_LT(at("/lineItems/24/sku") + 100000, at("/lineItems/216/sku"));
    EXPECT_EQ(r.usage.input_tokens > 0, true);
  }

  std::unique_ptr<sim::SimServer> sim_;
  std::string base_;
  std::unique_ptr<Engine> engine_;
  testing::LongInvoice invoice_;
};

// What a call cost, for docs/engine.md "Long documents" (printed, not asserted).
void PrintCost(const char* what, const StructureResult& r, double seconds) {
  std::printf("%s: %d parts, %d calls, input %lld tokens (cached %lld), output %lld, %.2f s\n",
              what, r.input_parts, r.iterations, static_cast<long long>(r.usage.input_tokens),
              static_cast<long long>(r.usage.cached_input_tokens),
              static_cast<long long>(r.usage.output_tokens), seconds);
}

TEST_F(LongDocumentEngineTest, OneRefusalThenPartsMergedIntoTheTruthAndTheWindowIsKept) {
  auto t0 = std::chrono::steady_clock::now();
  StructureResult first = Run();
  PrintCost("first call", first,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  ExpectTheTruth(first);
  EXPECT_NE(first.mode_reason.find("learned from the provider's refusal"), std::string::npos)
      << first.mode_reason;
  EXPECT_EQ(Refusals(), 1);
  t0 = std::chrono::steady_clock::now();
  StructureResult second = Run();
  PrintCost("next call", second,
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  ExpectTheTruth(second);
  EXPECT_EQ(Refusals(), 1);  // split before it was sent
}

TEST_F(LongDocumentEngineTest, MaxInputTokensPerCallSplitsWithoutARefusal) {
  StructureResult r = Run(R"({"maxInputTokensPerCall": 3000})");
  ExpectTheTruth(r);
  EXPECT_NE(r.mode_reason.find("maxInputTokensPerCall is 3000"), std::string::npos)
      << r.mode_reason;
  EXPECT_EQ(Refusals(), 0);
}

}  // namespace
}  // namespace structure
