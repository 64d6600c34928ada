// The structure call end to end: Engine -> request actor -> provider pool -> curl -> `structure
// sim` on loopback, one scenario rule per path (tests/data/engine/scenario.json).
#include "actors/engine.h"

#include <gtest/gtest.h>

#include <curl/curl.h>

#include <atomic>
#include <mutex>
#include <vector>

#include "registry/schema_registry.h"
#include "tests/actors/sim_process.h"
#include "tests/support/engine_fixture.h"
#include "tests/support/ticket_schema.h"

namespace structure {
namespace {

using pipeline::Outcome;
using pipeline::StructureResult;

constexpr const char* kConfig = R"(
[structure]
model = "openai"
schemaBuilderModel = "plain"

[providers.openai]
kind = "openai"
model = "gpt-test"
[providers.anthropic]
kind = "anthropic"
model = "claude-test"
[providers.gemini]
kind = "gemini"
model = "gemini-test"
[providers.ollama]
kind = "ollama"
model = "llama-test"
[providers.compat]
kind = "openai-compatible"
model = "local-test"
[providers.openrouter]
kind = "openrouter"
model = "router/test"
[providers.plain]
kind = "openai"
model = "plain-test"
profile = "json"
[providers.anthropic_nocache]
kind = "anthropic"
model = "claude-test"
[providers.anthropic_nocache.profile_overrides]
prompt_cache = false

[aliases]
"default:fast" = "openai"
"default:analyze" = "openai"
)";

constexpr const char* kSchema = testing::kTicketSchemaText;

std::string HttpGet(const std::string& url) {
  std::string body;
  CURL* c = curl_easy_init();
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, +[](char* p, size_t s, size_t n, void* out) {
    static_cast<std::string*>(out)->append(p, s * n);
    return s * n;
  });
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &body);
  curl_easy_perform(c);
  curl_easy_cleanup(c);
  return body;
}

class EngineTest : public testing::EngineFixture<EngineTest> {
 public:
  static std::unique_ptr<testing::ChildProcess> StartSuiteSim(std::string* error) {
    return testing::StartSim(
        STRUCTURE_BINARY,
        {"--scenario", std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/engine/scenario.json"},
        error);
  }

 protected:
  void SetUp() override {
    EngineOptions o;
    auto cfg = config::ParseConfig(kConfig, "engine_test.toml");
    ASSERT_TRUE(cfg.ok()) << cfg.status().message();
    o.config = *cfg;
    StartEngine(std::move(o));
  }

  StructureResult Run(const std::string& json_request) {
    auto req = pipeline::ParseRequest(*ParseJson(json_request));
    EXPECT_TRUE(req.ok()) << req.status().message();
    return engine_->Run(*req);
  }

  StructureResult RunInline(const std::string& prompt, const std::string& extra = "") {
    return Run(R"({"prompt":")" + prompt + R"(","schema":)" + kSchema + extra + "}");
  }

  // How often a scenario rule answered, from the simulator's /stats.
  static int64_t RuleHits(const std::string& rule) {
    auto stats = ParseJson(HttpGet(sim_->base_url() + "/stats"));
    if (!stats.ok()) return -1;
    const Json* rules = stats->find("rules");
    const Json* n = rules ? rules->find(rule) : nullptr;
    return n ? n->as_int() : 0;
  }
};

TEST_F(EngineTest, OkAtOnce) {
  StructureResult r = RunInline("CASE-OK Mike broke the build, priority two");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(pipeline::ResultToJson(r));
  EXPECT_EQ(ToJson(r.data), R"({"name":"Mike","priority":2})");
  EXPECT_EQ(r.iterations, 1);
  EXPECT_EQ(r.schema_origin, "inline");
  EXPECT_GT(r.usage.input_tokens, 0);
  EXPECT_EQ(r.mode, "strict");
}

TEST_F(EngineTest, InvalidThenReasonThenOkWithTheExactReasonText) {
  int64_t before = RuleHits("reask-reason-seen");
  StructureResult r = RunInline("CASE-REASK Mike broke the build, priority seven");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(pipeline::ResultToJson(r));
  EXPECT_EQ(r.data.find("priority")->as_int(), 5);
  EXPECT_EQ(r.iterations, 2);
  // The second call matched only because its last user turn was exactly the seed's reason.
  EXPECT_EQ(RuleHits("reask-reason-seen"), before + 1);
}

TEST_F(EngineTest, StaleAfterMaxLoopsWithTheLastErrors) {
  StructureResult r = RunInline("CASE-STALE priority nine", R"(,"maxLoops":2)");
  ASSERT_EQ(r.status, Outcome::kStale) << ToJson(pipeline::ResultToJson(r));
  EXPECT_EQ(r.iterations, 2);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0], "/priority: value must be <= 5 (was 9)");
}

TEST_F(EngineTest, NeedAnswerBecomesNeedMoreInput) {
  StructureResult r = RunInline("CASE-NEED Mike broke the build");
  ASSERT_EQ(r.status, Outcome::kNeedMoreInput) << ToJson(pipeline::ResultToJson(r));
  EXPECT_EQ(r.need, "the priority is not in the input");
}

TEST_F(EngineTest, BuilderLowConfidenceBecomesNeedMoreInputWithTheQuestion) {
  StructureResult r = Run(R"({"prompt":"whatever","schemaText":"LOWCONF some record"})");
  ASSERT_EQ(r.status, Outcome::kNeedMoreInput) << ToJson(pipeline::ResultToJson(r));
  EXPECT_EQ(r.need, "Which fields does a record have?");
  EXPECT_EQ(r.schema_origin, "inferred");
  EXPECT_EQ(r.iterations, 0);
}

TEST_F(EngineTest, BuilderCacheHitCostsOneCallForTwoRuns) {
  int64_t before = RuleHits("builder-good");
  const char* req = R"({"prompt":"CASE-OK Mike, priority two","schemaText":"name (string) and priority (integer 1-5), cache run"})";
  StructureResult a = Run(req);
  StructureResult b = Run(req);
  ASSERT_EQ(a.status, Outcome::kOk) << ToJson(pipeline::ResultToJson(a));
  ASSERT_EQ(b.status, Outcome::kOk) << ToJson(pipeline::ResultToJson(b));
  EXPECT_EQ(a.schema_origin, "inferred");
  EXPECT_EQ(RuleHits("builder-good"), before + 1);
  EXPECT_GT(a.usage.input_tokens, b.usage.input_tokens);  // the second paid for content only
}

TEST_F(EngineTest, FiftyConcurrentIdenticalDescriptionsShareOneBuilderCall) {
  int64_t before = RuleHits("builder-good");
  auto req = pipeline::ParseRequest(*ParseJson(
      R"({"prompt":"CASE-OK Mike, priority two","schemaText":"name (string) and priority (integer 1-5), concurrent"})"));
  ASSERT_TRUE(req.ok());
  std::vector<std::future<StructureResult>> futures;
  for (int i = 0; i < 50; ++i) futures.push_back(engine_->Submit(*req));
  for (auto& f : futures) EXPECT_EQ(f.get().status, Outcome::kOk);
  EXPECT_EQ(RuleHits("builder-good"), before + 1);
}

TEST_F(EngineTest, RegistryCascadeProjectBeatsTenantBeatsBundled) {
  auto& reg = engine_->schemas();
  const std::string tenant_schema =
      R"({"type":"object","properties":{"who":{"type":"string"}},"required":["who"],"additionalProperties":false})";
  const std::string project_schema =
      R"({"type":"object","properties":{"what":{"type":"string"}},"required":["what"],"additionalProperties":false})";
  ASSERT_TRUE(reg.Put({"acme", ""}, {"user-action-record", "1.1", tenant_schema, "tenant manual"}).ok());
  ASSERT_TRUE(reg.Put({"acme", "billing"}, {"user-action-record", "1.2", project_schema, ""}).ok());

  StructureResult bundled = Run(R"({"prompt":"CASE-GENERATE x","schemaName":"user-action-record"})");
  ASSERT_EQ(bundled.status, Outcome::kOk) << ToJson(pipeline::ResultToJson(bundled));
  EXPECT_EQ(bundled.schema_origin, "registry:bundled");

  StructureResult tenant = Run(R"({"prompt":"CASE-GENERATE x","schemaName":"user-action-record","tenant":"acme"})");
  ASSERT_EQ(tenant.status, Outcome::kOk) << ToJson(pipeline::ResultToJson(tenant));
  EXPECT_EQ(tenant.schema_origin, "registry:tenant:acme");
  EXPECT_TRUE(tenant.data.contains("who"));

  StructureResult project = Run(
      R"({"prompt":"CASE-GENERATE x","schemaName":"user-action-record","tenant":"acme","project":"billing"})");
  ASSERT_EQ(project.status, Outcome::kOk) << ToJson(pipeline::ResultToJson(project));
  EXPECT_EQ(project.schema_origin.rfind("registry:project:", 0), 0u) << project.schema_origin;
  EXPECT_TRUE(project.data.contains("what"));

  StructureResult other = Run(R"({"prompt":"CASE-GENERATE x","schemaName":"user-action-record","tenant":"globex"})");
  EXPECT_EQ(other.schema_origin, "registry:bundled");
}

TEST_F(EngineTest, UnknownSchemaNameIsAnError) {
  StructureResult r = Run(R"({"prompt":"x","schemaName":"no-such-schema"})");
  ASSERT_EQ(r.status, Outcome::kError);
  EXPECT_EQ(r.error_code, "unknown_schema");
  EXPECT_NE(r.errors.at(0).find("no-such-schema"), std::string::npos);
}

TEST_F(EngineTest, FinalToolTwoNudgesThenNoFinalAnswer) {
  StructureResult r = RunInline("CASE-FINAL-PROSE who did it", R"(,"finalTool":true)");
  ASSERT_EQ(r.status, Outcome::kError) << ToJson(pipeline::ResultToJson(r));
  EXPECT_EQ(r.error_code, "no_final_answer");
  EXPECT_EQ(r.iterations, 3);
}

TEST_F(EngineTest, FinalToolRejectedCallIsCorrected) {
  StructureResult r = RunInline("CASE-FINAL-TOOL who did it", R"(,"finalTool":true)");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(pipeline::ResultToJson(r));
  EXPECT_EQ(r.data.find("priority")->as_int(), 3);
  EXPECT_EQ(r.iterations, 2);
}

TEST_F(EngineTest, SemanticCheckRejectionReasks) {
  auto req = pipeline::ParseRequest(*ParseJson(std::string(R"({"prompt":"CASE-SEMANTIC Mike did it","schema":)") + kSchema + "}"));
  ASSERT_TRUE(req.ok());
  std::promise<StructureResult> done;
  engine_->Submit(*req, [&](StructureResult r) { done.set_value(std::move(r)); },
                  [](const Json& d) -> std::vector<std::string> {
                    if (d.find("name")->as_string() != "Mike") return {"/name: must be the person in the text (was \"" + d.find("name")->as_string() + "\")"};
                    return {};
                  });
  StructureResult r = done.get_future().get();
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(pipeline::ResultToJson(r));
  EXPECT_EQ(r.data.find("name")->as_string(), "Mike");
  EXPECT_EQ(r.iterations, 2);
}

TEST_F(EngineTest, ArrayModeKeepsCompleteRecordsOfATruncatedAnswer) {
  std::string schema = std::string(R"({"type":"array","items":)") + kSchema + "}";
  StructureResult r = Run(R"({"prompt":"CASE-ARRAY three people","arrayMode":true,"schema":)" + schema + "}");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(pipeline::ResultToJson(r));
  EXPECT_EQ(ToJson(r.data), R"([{"name":"a","priority":1},{"name":"b","priority":2}])");
}

// A registry schema whose manual makes the stable prefix long enough to cache; `tag` keeps it
// apart from other tests' prefixes in the shared simulator.
void PutLongManualSchema(registry::SchemaRegistry& reg, const std::string& tenant,
                         const std::string& tag, size_t bytes = 8000) {
  std::string manual = "# cached-ticket " + tag + "\n";
  while (manual.size() < bytes) manual += "Each ticket names the person and the priority. ";
  const std::string schema =
      R"({"type":"object","properties":{"name":{"type":"string"},"priority":{"enum":["low","high"]}},"required":["name","priority"],"additionalProperties":false})";
  ASSERT_TRUE(reg.Put({tenant, ""}, {"cached-ticket", "1.0", schema, manual}).ok());
}

TEST_F(EngineTest, AnthropicWritesTheStablePrefixOnceThenReadsIt) {
  ASSERT_NO_FATAL_FAILURE(PutLongManualSchema(engine_->schemas(), "cache-a", "anthropic"));
  const char* req =
      R"({"prompt":"CASE-GENERATE %s","schemaName":"cached-ticket","tenant":"cache-a","model":"anthropic"})";
  auto run = [&](const char* text) {
    std::string body(req);
    body.replace(body.find("%s"), 2, text);
    return Run(body);
  };
  StructureResult first = run("first ticket");
  StructureResult second = run("second ticket");
  ASSERT_EQ(first.status, Outcome::kOk) << ToJson(pipeline::ResultToJson(first));
  ASSERT_EQ(second.status, Outcome::kOk) << ToJson(pipeline::ResultToJson(second));
  EXPECT_GT(first.usage.cache_write_tokens, 2000);
  EXPECT_EQ(first.usage.cached_input_tokens, 0);
  EXPECT_EQ(second.usage.cached_input_tokens, first.usage.cache_write_tokens);
  EXPECT_EQ(second.usage.cache_write_tokens, 0);
  EXPECT_GT(second.usage.input_tokens, second.usage.cached_input_tokens);
  Json usage = *pipeline::ResultToJson(second).find("usage");
  EXPECT_EQ(usage.find("cachedInputTokens")->as_int(), second.usage.cached_input_tokens);
}

TEST_F(EngineTest, PromptCacheOffInTheProfileSendsNoCacheMark) {
  ASSERT_NO_FATAL_FAILURE(PutLongManualSchema(engine_->schemas(), "cache-b", "nocache"));
  const char* req =
      R"({"prompt":"CASE-GENERATE x","schemaName":"cached-ticket","tenant":"cache-b","model":"anthropic_nocache"})";
  StructureResult first = Run(req);
  StructureResult second = Run(req);
  ASSERT_EQ(second.status, Outcome::kOk) << ToJson(pipeline::ResultToJson(second));
  EXPECT_EQ(first.usage.cache_write_tokens + second.usage.cache_write_tokens, 0);
  EXPECT_EQ(second.usage.cached_input_tokens, 0);
}

TEST_F(EngineTest, OpenAiAndGeminiCacheTheSharedPrefixImplicitly) {
  ASSERT_NO_FATAL_FAILURE(PutLongManualSchema(engine_->schemas(), "cache-c", "implicit", 20000));
  // 20000 bytes reach Gemini's 4096-token minimum for a model it does not list.
  for (const char* model : {"openai", "gemini"}) {
    std::string req = std::string(R"({"prompt":"CASE-GENERATE a","schemaName":"cached-ticket","tenant":"cache-c","model":")") +
                      model + R"("})";
    StructureResult first = Run(req);
    StructureResult second = Run(req);
    ASSERT_EQ(second.status, Outcome::kOk) << model << ToJson(pipeline::ResultToJson(second));
    EXPECT_EQ(first.usage.cached_input_tokens, 0) << model;
    EXPECT_GE(second.usage.cached_input_tokens, 1024) << model;
    EXPECT_EQ(second.usage.cache_write_tokens, 0) << model;
  }
}

// Engine::stats(): every call counted under its schema's label (an override keeps its name, a
// name never found is "unknown"), every re-ask by reason, and per provider (issue 17.2).
TEST_F(EngineTest, StatsCountEveryCallPerSchemaAndProvider) {
  ASSERT_NO_FATAL_FAILURE(PutLongManualSchema(engine_->schemas(), "stats-t", "stats", 100));
  StructureResult named = Run(R"({"prompt":"CASE-GENERATE x","schemaName":"cached-ticket","tenant":"stats-t"})");
  ASSERT_EQ(named.status, Outcome::kOk) << ToJson(pipeline::ResultToJson(named));
  StructureResult reask = RunInline("CASE-REASK Mike broke the build, priority seven");
  ASSERT_EQ(reask.iterations, 2) << ToJson(pipeline::ResultToJson(reask));
  StructureResult missing = Run(R"({"prompt":"x","schemaName":"no-such-schema"})");
  ASSERT_EQ(missing.error_code, "unknown_schema");

  pipeline::StatsSnapshot s = engine_->stats();
  ASSERT_EQ(s.schemas.size(), 3u);
  const pipeline::SchemaStats& t = s.schemas.at("cached-ticket");
  EXPECT_EQ(t.calls, 1u);
  EXPECT_EQ(t.results[static_cast<size_t>(Outcome::kOk)], 1u);
  EXPECT_EQ(t.input_tokens, static_cast<uint64_t>(named.usage.input_tokens));
  const pipeline::SchemaStats& in = s.schemas.at("inline");
  EXPECT_EQ(in.iterations[2], 1u);
  EXPECT_EQ(in.reasks[static_cast<size_t>(pipeline::ReaskReason::kBounds)], 1u);
  EXPECT_EQ(in.output_tokens, static_cast<uint64_t>(reask.usage.output_tokens));
  EXPECT_EQ(s.schemas.at("unknown").results[static_cast<size_t>(Outcome::kError)], 1u);
  ASSERT_EQ(s.providers.count("openai"), 1u);
  EXPECT_EQ(s.providers.at("openai").calls, 3u);
  EXPECT_EQ(s.providers.at("openai").seconds.count, 3u);
}

class EngineProviderTest : public EngineTest, public ::testing::WithParamInterface<const char*> {};

// Every constraint of this schema is one each provider enforces (Anthropic rejects numeric
// bounds, so the simulator, generating from the provider schema, would violate them).
constexpr const char* kPortableSchema = R"({"type":"object","properties":{
  "name":{"type":"string"},"priority":{"enum":["low","medium","high"]}},
  "required":["name","priority"],"additionalProperties":false})";

TEST_P(EngineProviderTest, OkAndNeedMoreInputEndToEnd) {
  std::string provider = GetParam();
  StructureResult ok = Run(std::string(R"({"prompt":"CASE-GENERATE any record","model":")") +
                           provider + R"(","schema":)" + kPortableSchema + "}");
  ASSERT_EQ(ok.status, Outcome::kOk) << provider << ": " << ToJson(pipeline::ResultToJson(ok));
  EXPECT_TRUE(ok.data.contains("name"));
  StructureResult need = Run(std::string(R"({"prompt":"CASE-GEN-NEED a record without a date","model":")") +
                             provider + R"(","schema":)" + kPortableSchema + "}");
  ASSERT_EQ(need.status, Outcome::kNeedMoreInput) << provider << ": " << ToJson(pipeline::ResultToJson(need));
  EXPECT_EQ(need.need, "the date is missing");
}

INSTANTIATE_TEST_SUITE_P(AllWireFormats, EngineProviderTest,
                         ::testing::Values("openai", "anthropic", "gemini", "ollama", "compat",
                                           "openrouter"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param);
                         });

}  // namespace
}  // namespace structure
