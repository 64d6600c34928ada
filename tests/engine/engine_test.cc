// The structure call end to end: Engine -> request actor -> provider pool -> curl -> `structure
// sim` on loopback, one scenario rule per path (tests/data/engine/scenario.json).
#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <map>
#include <mutex>
#include <vector>

#include <curl/curl.h>

#include "base/read_file.h"
#include "config/load_config.h"
#include "engine/engine_internal.h"
#include "providers/endpoint.h"
#include "providers/wire.h"
#include "registry/schema_registry.h"
#include "tests/support/engine_fixture.h"
#include "tests/support/sim_process.h"
#include "tests/support/ticket_schema.h"

namespace structure {
namespace {

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
[providers.legacy]
kind = "gemini"
model = "gemini-test"
profile = "gemini-legacy"
[providers.ollama]
kind = "ollama"
model = "llama-test"
[providers.compat]
kind = "openai-compatible"
model = "local-test"
[providers.openrouter]
kind = "openrouter"
model = "router/test"
[providers.vllm]
kind = "vllm"
model = "vllm-test"
[providers.llamacpp]
kind = "llamacpp"
model = "llamacpp-test"
[providers.llamafile]
kind = "llamafile"
model = "llamafile-test"
[providers.plain]
kind = "openai"
model = "plain-test"
profile = "json"
[providers.anthropic_nocache]
kind = "anthropic"
model = "claude-test"
[providers.anthropic_nocache.profile_overrides]
prompt_cache = false
[providers.gemini_batch]
kind = "gemini"
model = "gemini-2.5-flash"
[providers.gemini_batch.profile_overrides]
batch_schema_field = "responseSchema"

[aliases]
"default:fast" = "openai"
"default:analyze" = "openai"

[tenants.lax.settings]
requireProviderStrictOutput = false
confidenceThreshold = 0.5
)";

constexpr const char* kSchema = testing::kTicketSchemaText;

std::string HttpGet(const std::string& url) {
  std::string body;
  CURL* c = curl_easy_init();
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(
      c, CURLOPT_WRITEFUNCTION, +[](char* p, size_t s, size_t n, void* out) {
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
  void SetUp() override { StartEngineWithConfig(kConfig, "engine_test.toml"); }

  StructureResult Run(const std::string& json_request) {
    auto req = ParseRequest(*ParseJson(json_request));
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
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(ToJson(r.data), R"({"name":"Mike","priority":2})");
  EXPECT_EQ(r.iterations, 1);
  EXPECT_EQ(r.schema_origin, "inline");
  EXPECT_GT(r.usage.input_tokens, 0);
  EXPECT_EQ(r.mode, "strict");
}

TEST_F(EngineTest, InvalidThenReasonThenOkWithTheExactReasonText) {
  int64_t before = RuleHits("reask-reason-seen");
  StructureResult r = RunInline("CASE-REASK Mike broke the build, priority seven");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(r.data.find("priority")->as_int(), 5);
  EXPECT_EQ(r.iterations, 2);
  // The second call matched only because its last user turn was exactly the expected reason.
  EXPECT_EQ(RuleHits("reask-reason-seen"), before + 1);
}

TEST_F(EngineTest, StaleAfterMaxLoopsWithTheLastErrors) {
  StructureResult r = RunInline("CASE-STALE priority nine", R"(,"maxLoops":2)");
  ASSERT_EQ(r.status, Outcome::kStale) << ToJson(ResultToJson(r));
  EXPECT_EQ(r.iterations, 2);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0], "/priority: value must be <= 5 (was 9)");
}

TEST_F(EngineTest, NeedAnswerBecomesNeedMoreInput) {
  StructureResult r = RunInline("CASE-NEED Mike broke the build");
  ASSERT_EQ(r.status, Outcome::kNeedMoreInput) << ToJson(ResultToJson(r));
  EXPECT_EQ(r.need, "the priority is not in the input");
}

TEST_F(EngineTest, BuilderLowConfidenceBecomesNeedMoreInputWithTheQuestion) {
  StructureResult r = Run(R"({"prompt":"whatever","schemaText":"LOWCONF some record"})");
  ASSERT_EQ(r.status, Outcome::kNeedMoreInput) << ToJson(ResultToJson(r));
  EXPECT_EQ(r.need, "Which fields does a record have?");
  EXPECT_EQ(r.schema_origin, "inferred");
  EXPECT_EQ(r.iterations, 0);
}

// The request is the last level of the settings cascade: built-in -> file -> tenant -> request.
TEST_F(EngineTest, RequestSettingsOverrideTheTenantAndTheDefaults) {
  EXPECT_EQ(RunInline("CASE-OK Mike, priority two").mode, "strict");
  EXPECT_EQ(RunInline("CASE-OK Mike, priority two", R"(,"requireProviderStrictOutput":false)").mode,
            "fallback");
  EXPECT_EQ(RunInline("CASE-OK Mike, priority two", R"(,"tenant":"lax")").mode, "fallback");
  StructureResult strict = RunInline("CASE-OK Mike, priority two",
                                     R"(,"tenant":"lax","requireProviderStrictOutput":true)");
  EXPECT_EQ(strict.mode, "strict");
  EXPECT_EQ(strict.status, Outcome::kOk) << ToJson(ResultToJson(strict));

  // The builder is 0.6 sure: below the default 0.8, above the tenant's 0.5 and a request's 0.3.
  const std::string text =
      R"({"prompt":"CASE-OK Mike, priority two","schemaText":"MIDCONF a record")";
  StructureResult unsure = Run(text + "}");
  ASSERT_EQ(unsure.status, Outcome::kNeedMoreInput) << ToJson(ResultToJson(unsure));
  EXPECT_NE(unsure.need.find("confidence 0.60"), std::string::npos) << unsure.need;
  StructureResult sure = Run(text + R"(,"confidenceThreshold":0.3})");
  ASSERT_EQ(sure.status, Outcome::kOk) << ToJson(ResultToJson(sure));
  EXPECT_EQ(ToJson(sure.data), R"({"name":"Mike","priority":2})");
  // (strict output back on: the scenario answers in OpenAI strict's envelope)
  const std::string lax = text + R"(,"tenant":"lax","requireProviderStrictOutput":true)";
  EXPECT_EQ(Run(lax + "}").status, Outcome::kOk);
  EXPECT_EQ(Run(lax + R"(,"confidenceThreshold":0.9})").status, Outcome::kNeedMoreInput);
}

TEST_F(EngineTest, BuilderCacheHitCostsOneCallForTwoRuns) {
  int64_t before = RuleHits("builder-good");
  const char* req =
      R"({"prompt":"CASE-OK Mike, priority two","schemaText":"name (string) and priority (integer 1-5), cache run"})";
  StructureResult a = Run(req);
  StructureResult b = Run(req);
  ASSERT_EQ(a.status, Outcome::kOk) << ToJson(ResultToJson(a));
  ASSERT_EQ(b.status, Outcome::kOk) << ToJson(ResultToJson(b));
  EXPECT_EQ(a.schema_origin, "inferred");
  EXPECT_EQ(RuleHits("builder-good"), before + 1);
  EXPECT_GT(a.usage.input_tokens, b.usage.input_tokens);  // the second paid for content only
}

TEST_F(EngineTest, FiftyConcurrentIdenticalDescriptionsShareOneBuilderCall) {
  int64_t before = RuleHits("builder-good");
  auto req = ParseRequest(*ParseJson(
      R"({"prompt":"CASE-OK Mike, priority two","schemaText":"name (string) and priority (integer 1-5), concurrent"})"));
  ASSERT_TRUE(req.ok());
  std::vector<std::future<StructureResult>> futures;
  for (int i = 0; i < 50; ++i) futures.push_back(engine_->Submit(*req));
  for (auto& f : futures) EXPECT_EQ(f.get().status, Outcome::kOk);
  EXPECT_EQ(RuleHits("builder-good"), before + 1);
}

TEST_F(EngineTest, RegistryCascadeProjectBeatsTenantBeatsBundled) {
  auto& reg = EngineInternal::Schemas(*engine_);
  // Overrides are minor versions of the bundled 1.0, so compatible: each adds an optional field.
  auto bundled_text =
      ReadFile(std::string(STRUCTURE_SOURCE_DIR) + "/registry/schemas/user-action-record.json");
  ASSERT_TRUE(bundled_text.ok());
  Json schema = *ParseJson(*bundled_text);
  schema.erase("x-version");
  (*schema.find("properties")).set("source", Json(Json::Object{{"type", "string"}}));
  const std::string tenant_schema = ToJson(schema);
  (*schema.find("properties")).set("region", Json(Json::Object{{"type", "string"}}));
  const std::string project_schema = ToJson(schema);
  ASSERT_TRUE(
      reg.Put({"acme", ""}, {"user-action-record", "1.1", tenant_schema, "tenant manual"}).ok());
  ASSERT_TRUE(reg.Put({"acme", "billing"}, {"user-action-record", "1.2", project_schema, ""}).ok());
  // An incompatible one is refused, naming what broke.
  Status breaking = reg.Put({"acme", "ops"}, {"user-action-record", "1.3",
                                              R"({"type":"object","properties":{"who":{}}})", ""});
  EXPECT_NE(breaking.message().find("property \"userId\" removed"), std::string::npos)
      << breaking.message();

  StructureResult bundled =
      Run(R"({"prompt":"CASE-GENERATE x","schemaName":"user-action-record"})");
  ASSERT_EQ(bundled.status, Outcome::kOk) << ToJson(ResultToJson(bundled));
  EXPECT_EQ(bundled.schema_origin, "registry:bundled");

  StructureResult tenant =
      Run(R"({"prompt":"CASE-GENERATE x","schemaName":"user-action-record","tenant":"acme"})");
  ASSERT_EQ(tenant.status, Outcome::kOk) << ToJson(ResultToJson(tenant));
  EXPECT_EQ(tenant.schema_origin, "registry:tenant:acme");
  EXPECT_TRUE(tenant.data.contains("userId"));

  StructureResult project = Run(
      R"({"prompt":"CASE-GENERATE x","schemaName":"user-action-record","tenant":"acme","project":"billing"})");
  ASSERT_EQ(project.status, Outcome::kOk) << ToJson(ResultToJson(project));
  EXPECT_EQ(project.schema_origin.rfind("registry:project:", 0), 0u) << project.schema_origin;
  EXPECT_TRUE(project.data.contains("userId"));

  StructureResult other =
      Run(R"({"prompt":"CASE-GENERATE x","schemaName":"user-action-record","tenant":"globex"})");
  EXPECT_EQ(other.schema_origin, "registry:bundled");
}

// Prepare stops after the schema stage: the loop, where its calls go, and the schema origin;
// a request that ends before any content call answers through `done` instead.
TEST_F(EngineTest, PrepareHandsTheContentLoopOver) {
  std::promise<pipeline::PreparedCall> ready;
  std::promise<StructureResult> done;
  auto req = ParseRequest(
      *ParseJson(std::string(R"({"prompt":"p","schemaName":"contact","model":"anthropic"})")));
  ASSERT_TRUE(req.ok());
  EngineInternal::Prepare(
      *engine_, *req, [&](pipeline::PreparedCall p) { ready.set_value(std::move(p)); },
      [&](StructureResult r) { done.set_value(std::move(r)); });
  pipeline::PreparedCall p = ready.get_future().get();
  EXPECT_EQ(p.provider, "anthropic");
  EXPECT_EQ(p.endpoint.kind, providers::ProviderKind::kAnthropic);
  EXPECT_EQ(p.schema_origin, "registry:bundled");
  ASSERT_NE(p.spec.plan, nullptr);
  EXPECT_EQ(p.spec.prompt, "p");
  EXPECT_EQ(p.spec.model, "claude-test");
  pipeline::LoopState state;
  auto first = pipeline::Start(p.spec, state);
  ASSERT_TRUE(std::holds_alternative<pipeline::SendCall>(first));
  EXPECT_EQ(std::get<pipeline::SendCall>(first).call.model, "claude-test");

  std::promise<StructureResult> failed;
  auto bad =
      ParseRequest(*ParseJson(std::string(R"({"prompt":"p","schemaName":"no-such-schema"})")));
  ASSERT_TRUE(bad.ok());
  EngineInternal::Prepare(
      *engine_, *bad, [](pipeline::PreparedCall) { ADD_FAILURE() << "prepared an unknown schema"; },
      [&](StructureResult r) { failed.set_value(std::move(r)); });
  StructureResult r = failed.get_future().get();
  EXPECT_EQ(r.status, Outcome::kError);
  EXPECT_EQ(r.error_code, ErrorCode::kUnknownSchema);
}

pipeline::PreparedCall PrepareFor(Engine& engine, const std::string& model) {
  std::promise<pipeline::PreparedCall> ready;
  auto req = pipeline::ParseRequest(
      *ParseJson(R"({"prompt":"p","schemaName":"contact","model":")" + model + R"("})"));
  EXPECT_TRUE(req.ok());
  EngineInternal::Prepare(
      engine, *req, [&](pipeline::PreparedCall p) { ready.set_value(std::move(p)); },
      [](pipeline::CallResult r) { ADD_FAILURE() << ToJson(ResultToJson(std::move(r))); });
  return ready.get_future().get();
}

std::string FirstBody(const pipeline::PreparedCall& p) {
  pipeline::LoopState state;
  auto first = pipeline::Start(p.spec, state);
  auto req = providers::BuildRequest(std::get<pipeline::SendCall>(first).call, p.endpoint);
  EXPECT_TRUE(req.ok()) << req.status().ToString();
  return req.ok() ? req->body : "";
}

// Gemini provider batches take the schema in the field the profile names (batch_schema_field):
// responseJsonSchema by default, the live form; responseSchema, lowered with the legacy rules,
// when the profile says so. Live calls keep responseJsonSchema either way.
TEST_F(EngineTest, GeminiBatchSchemaFieldIsAProfileSetting) {
  pipeline::PreparedCall legacy = PrepareFor(*engine_, "gemini_batch");
  EXPECT_TRUE(legacy.endpoint.gemini_legacy_schema);
  std::string body = FirstBody(legacy);
  EXPECT_NE(body.find("\"responseSchema\""), std::string::npos) << body;
  EXPECT_NE(body.find("\"OBJECT\""), std::string::npos) << body;
  EXPECT_EQ(body.find("responseJsonSchema"), std::string::npos) << body;
  pipeline::PreparedCall plain = PrepareFor(*engine_, "gemini");
  EXPECT_FALSE(plain.endpoint.gemini_legacy_schema);
  EXPECT_NE(FirstBody(plain).find("\"responseJsonSchema\""), std::string::npos);
  StructureResult live = RunInline("CASE-GENERATE any record", R"(,"model":"gemini_batch")");
  EXPECT_EQ(live.status, Outcome::kOk) << ToJson(ResultToJson(live));
}

TEST_F(EngineTest, UnknownSchemaNameIsAnError) {
  StructureResult r = Run(R"({"prompt":"x","schemaName":"no-such-schema"})");
  ASSERT_EQ(r.status, Outcome::kError);
  EXPECT_EQ(r.error_code, ErrorCode::kUnknownSchema);
  EXPECT_NE(r.errors.at(0).find("no-such-schema"), std::string::npos);
}

TEST_F(EngineTest, FinalToolTwoNudgesThenNoFinalAnswer) {
  StructureResult r = RunInline("CASE-FINAL-PROSE who did it", R"(,"finalTool":true)");
  ASSERT_EQ(r.status, Outcome::kError) << ToJson(ResultToJson(r));
  EXPECT_EQ(r.error_code, ErrorCode::kNoFinalAnswer);
  EXPECT_EQ(r.iterations, 0) << "answers in prose get nudges, not iterations";
}

TEST_F(EngineTest, FinalToolRejectedCallIsCorrected) {
  StructureResult r = RunInline("CASE-FINAL-TOOL who did it", R"(,"finalTool":true)");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(r.data.find("priority")->as_int(), 3);
  EXPECT_EQ(r.iterations, 2);
}

TEST_F(EngineTest, FinalToolTakesTheFirstValidCallOfAReply) {
  StructureResult r = RunInline("CASE-FINAL-TWO who did it", R"(,"finalTool":true)");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(ToJson(r.data), R"({"name":"Mike","priority":3})");
  EXPECT_EQ(r.iterations, 1);
}

TEST_F(EngineTest, FinalToolAValidCallBeatsANeedCallInTheSameReply) {
  StructureResult r = RunInline("CASE-FINAL-NEED who did it", R"(,"finalTool":true)");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(ToJson(r.data), R"({"name":"Mike","priority":2})");
}

TEST_F(EngineTest, FinalToolRejectedCallsAllGoBackAndTheNextReplyIsJudged) {
  // Two rejected calls in one reply: each gets its tool result (the wire format must accept the
  // conversation), then the corrected call ends the run.
  for (const char* model : {"openai", "anthropic", "gemini", "ollama"}) {
    StructureResult r = RunInline("CASE-FINAL-BAD who did it",
                                  std::string(R"(,"finalTool":true,"model":")") + model + "\"");
    ASSERT_EQ(r.status, Outcome::kOk) << model << ": " << ToJson(ResultToJson(r));
    EXPECT_EQ(r.data.find("priority")->as_int(), 4) << model;
    EXPECT_EQ(r.iterations, 2) << model;
  }
}

TEST_F(EngineTest, SemanticCheckRejectionReasks) {
  auto req = ParseRequest(*ParseJson(
      std::string(R"({"prompt":"CASE-SEMANTIC Mike did it","schema":)") + kSchema + "}"));
  ASSERT_TRUE(req.ok());
  std::promise<StructureResult> done;
  engine_->Submit(
      *req, [&](StructureResult r) { done.set_value(std::move(r)); },
      [](const Json& d) -> std::vector<std::string> {
        if (d.find("name")->as_string() != "Mike")
          return {"/name: must be the person in the text (was \"" + d.find("name")->as_string() +
                  "\")"};
        return {};
      });
  StructureResult r = done.get_future().get();
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(r.data.find("name")->as_string(), "Mike");
  EXPECT_EQ(r.iterations, 2);
}

// An engine whose calls are checked by `checks` (tenant -> command).
class EngineCheckTest : public EngineTest {
 protected:
  void SetUp() override {}
  void StartWithChecks(std::map<std::string, CheckCommand> checks) {
    EngineOptions o;
    o.config = *Config::Parse(kConfig, "engine_test.toml");
    o.checks = std::move(checks);
    StartEngine(std::move(o));
  }
  static std::string CheckMike() {
    return "sh " + std::string(STRUCTURE_SOURCE_DIR) + "/tests/data/engine/check_mike.sh";
  }
};

TEST_F(EngineCheckTest, CheckCommandLinesFeedTheReasonLoopInTheChecksWords) {
  ASSERT_NO_FATAL_FAILURE(StartWithChecks({{"", {CheckMike(), 60000}}}));
  int64_t before = RuleHits("check-reason-seen");
  StructureResult r = RunInline("CASE-SEMANTIC Mike did it");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(r.data.find("name")->as_string(), "Mike");
  EXPECT_EQ(r.iterations, 2);
  // The second call matched only because its last user turn was exactly the check's reason.
  EXPECT_EQ(RuleHits("check-reason-seen"), before + 1);
  // In final-tool mode the first schema-valid call is the one checked (and accepted here).
  StructureResult f = RunInline("CASE-FINAL-TWO who did it", R"(,"finalTool":true)");
  ASSERT_EQ(f.status, Outcome::kOk) << ToJson(ResultToJson(f));
  EXPECT_EQ(ToJson(f.data), R"({"name":"Mike","priority":3})");
}

TEST_F(EngineCheckTest, AFailingOrHangingCheckEndsTheCallCheckFailed) {
  ASSERT_NO_FATAL_FAILURE(StartWithChecks(
      {{"", {"echo 'tracker down' >&2; exit 4", 60000}}, {"slow", {"sleep 30", 300}}}));
  StructureResult failed = RunInline("CASE-OK Mike, priority two");
  ASSERT_EQ(failed.status, Outcome::kError) << ToJson(ResultToJson(failed));
  EXPECT_EQ(failed.error_code, ErrorCode::kCheckFailed);
  EXPECT_EQ(failed.errors.at(0), "check command exited with status 4: tracker down");
  StructureResult hung = RunInline("CASE-OK Mike, priority two", R"(,"tenant":"slow")");
  ASSERT_EQ(hung.status, Outcome::kError) << ToJson(ResultToJson(hung));
  EXPECT_EQ(hung.error_code, ErrorCode::kCheckFailed);
  EXPECT_EQ(hung.errors.at(0), "check command timed out after 300 ms and was killed");
}

TEST_F(EngineCheckTest, ATenantsCheckAppliesToItsCallsOnly) {
  ASSERT_NO_FATAL_FAILURE(StartWithChecks({{"acme", {"echo '/name: acme says no'", 60000}}}));
  EXPECT_EQ(RunInline("CASE-OK Mike, priority two").status, Outcome::kOk);
  StructureResult acme =
      RunInline("CASE-OK Mike, priority two", R"(,"tenant":"acme","maxLoops":1)");
  ASSERT_EQ(acme.status, Outcome::kStale) << ToJson(ResultToJson(acme));
  EXPECT_EQ(acme.errors, std::vector<std::string>{"/name: acme says no"});
}

TEST_F(EngineCheckTest, ManyCallsAreCheckedAtOnce) {
  ASSERT_NO_FATAL_FAILURE(StartWithChecks({{"", {CheckMike(), 60000}}}));
  constexpr int kCalls = 40;
  std::vector<std::future<StructureResult>> results;
  for (int i = 0; i < kCalls; ++i) {
    auto req = ParseRequest(*ParseJson(std::string(R"({"prompt":"CASE-SEMANTIC call )") +
                                       std::to_string(i) + R"(","schema":)" + kSchema + "}"));
    ASSERT_TRUE(req.ok());
    results.push_back(engine_->Submit(std::move(*req)));
  }
  for (auto& f : results) {
    StructureResult r = f.get();
    ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
    EXPECT_EQ(r.iterations, 2);
  }
}

TEST_F(EngineTest, ArrayModeKeepsCompleteRecordsOfATruncatedAnswer) {
  std::string schema = std::string(R"({"type":"array","items":)") + kSchema + "}";
  // Cut off after two records: with a call left, the records after them are asked for and joined.
  StructureResult r =
      Run(R"({"prompt":"CASE-ARRAY three people","arrayMode":true,"schema":)" + schema + "}");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(ToJson(r.data),
            R"([{"name":"a","priority":1},{"name":"b","priority":2},{"name":"c","priority":3}])");
  EXPECT_FALSE(r.truncated);
  // With no call left the two complete records stand, and the result says records are missing.
  StructureResult cut = Run(R"({"prompt":"CASE-ARRAY three people","arrayMode":true,"maxLoops":1,)"
                            R"("schema":)" +
                            schema + "}");
  ASSERT_EQ(cut.status, Outcome::kOk) << ToJson(ResultToJson(cut));
  EXPECT_EQ(ToJson(cut.data), R"([{"name":"a","priority":1},{"name":"b","priority":2}])");
  EXPECT_TRUE(cut.truncated);
}

TEST_F(EngineTest, ArrayModeKeepsARecordRepeatedAtTheSeamOnce) {
  std::string schema = std::string(R"({"type":"array","items":)") + kSchema + "}";
  // Cut off after records a and b; the continuation starts again with b: b is kept once.
  StructureResult r = Run(R"({"prompt":"CASE-SEAM three people","arrayMode":true,"trace":true,)"
                          R"("schema":)" +
                          schema + "}");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(ToJson(r.data),
            R"([{"name":"a","priority":1},{"name":"b","priority":2},{"name":"c","priority":3}])");
  EXPECT_EQ(r.data.size(), 3u);
  EXPECT_FALSE(r.truncated);
  EXPECT_EQ(r.iterations, 2);
  // The continuation told the model how many records it had received and where to go on.
  std::string trace = ToJson(r.trace);
  EXPECT_NE(trace.find("records 1 to 2 are received and kept. Answer with record 3"),
            std::string::npos)
      << trace;
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
  ASSERT_NO_FATAL_FAILURE(
      PutLongManualSchema(EngineInternal::Schemas(*engine_), "cache-a", "anthropic"));
  const char* req =
      R"({"prompt":"CASE-GENERATE %s","schemaName":"cached-ticket","tenant":"cache-a","model":"anthropic"})";
  auto run = [&](const char* text) {
    std::string body(req);
    body.replace(body.find("%s"), 2, text);
    return Run(body);
  };
  StructureResult first = run("first ticket");
  StructureResult second = run("second ticket");
  ASSERT_EQ(first.status, Outcome::kOk) << ToJson(ResultToJson(first));
  ASSERT_EQ(second.status, Outcome::kOk) << ToJson(ResultToJson(second));
  EXPECT_GT(first.usage.cache_write_tokens, 2000);
  EXPECT_EQ(first.usage.cached_input_tokens, 0);
  EXPECT_EQ(second.usage.cached_input_tokens, first.usage.cache_write_tokens);
  EXPECT_EQ(second.usage.cache_write_tokens, 0);
  EXPECT_GT(second.usage.input_tokens, second.usage.cached_input_tokens);
  Json usage = *ResultToJson(second).find("usage");
  EXPECT_EQ(usage.find("cachedInputTokens")->as_int(), second.usage.cached_input_tokens);
}

TEST_F(EngineTest, PromptCacheOffInTheProfileSendsNoCacheMark) {
  ASSERT_NO_FATAL_FAILURE(
      PutLongManualSchema(EngineInternal::Schemas(*engine_), "cache-b", "nocache"));
  const char* req =
      R"({"prompt":"CASE-GENERATE x","schemaName":"cached-ticket","tenant":"cache-b","model":"anthropic_nocache"})";
  StructureResult first = Run(req);
  StructureResult second = Run(req);
  ASSERT_EQ(second.status, Outcome::kOk) << ToJson(ResultToJson(second));
  EXPECT_EQ(first.usage.cache_write_tokens + second.usage.cache_write_tokens, 0);
  EXPECT_EQ(second.usage.cached_input_tokens, 0);
}

TEST_F(EngineTest, OpenAiAndGeminiCacheTheSharedPrefixImplicitly) {
  ASSERT_NO_FATAL_FAILURE(
      PutLongManualSchema(EngineInternal::Schemas(*engine_), "cache-c", "implicit", 20000));
  // 20000 bytes reach Gemini's 4096-token minimum for a model it does not list.
  for (const char* model : {"openai", "gemini"}) {
    std::string req =
        std::string(
            R"({"prompt":"CASE-GENERATE a","schemaName":"cached-ticket","tenant":"cache-c","model":")") +
        model + R"("})";
    StructureResult first = Run(req);
    StructureResult second = Run(req);
    ASSERT_EQ(second.status, Outcome::kOk) << model << ToJson(ResultToJson(second));
    EXPECT_EQ(first.usage.cached_input_tokens, 0) << model;
    EXPECT_GE(second.usage.cached_input_tokens, 1024) << model;
    EXPECT_EQ(second.usage.cache_write_tokens, 0) << model;
  }
}

TEST_F(EngineTest, ArrayModeWrapsAnItemSchemaAndReadsJsonLines) {
  StructureResult r = RunInline("CASE-JSONL-FENCED two people", R"(,"arrayMode":true)");
  ASSERT_EQ(r.status, Outcome::kOk) << ToJson(ResultToJson(r));
  EXPECT_EQ(ToJson(r.data), R"([{"name":"a","priority":1},{"name":"b","priority":2}])");
  // Cut off with no call left: the complete lines stand, marked truncated.
  StructureResult cut =
      RunInline("CASE-JSONL-CUT three people", R"(,"arrayMode":true,"maxLoops":1)");
  ASSERT_EQ(cut.status, Outcome::kOk) << ToJson(ResultToJson(cut));
  EXPECT_EQ(ToJson(cut.data), R"([{"name":"a","priority":1},{"name":"b","priority":2}])");
  EXPECT_TRUE(cut.truncated);
  // Each line is validated as an item: the bad record is named by its position.
  StructureResult bad = RunInline("CASE-JSONL-BAD two people", R"(,"arrayMode":true,"maxLoops":1)");
  ASSERT_EQ(bad.status, Outcome::kStale) << ToJson(ResultToJson(bad));
  EXPECT_EQ(bad.errors, std::vector<std::string>{"/1/priority: value must be <= 5 (was 7)"});
  StructureResult fixed = RunInline("CASE-JSONL-BAD two people", R"(,"arrayMode":true)");
  ASSERT_EQ(fixed.status, Outcome::kOk) << ToJson(ResultToJson(fixed));
  EXPECT_EQ(fixed.iterations, 2);
}

TEST_F(EngineTest, ArrayModeWrapsARegistrySchema) {
  StructureResult r =
      Run(R"({"prompt":"CASE-JSONL-FENCED two","schemaName":"no-such","arrayMode":true})");
  EXPECT_EQ(r.error_code, ErrorCode::kUnknownSchema);
  ASSERT_TRUE(EngineInternal::Schemas(*engine_)
                  .Put({"acme", ""}, {"ticket", "1.0", testing::kTicketSchemaText, ""})
                  .ok());
  StructureResult named = Run(
      R"({"prompt":"CASE-JSONL-FENCED two","schemaName":"ticket","tenant":"acme","arrayMode":true})");
  ASSERT_EQ(named.status, Outcome::kOk) << ToJson(ResultToJson(named));
  EXPECT_EQ(named.data.size(), 2u);
}

// EngineInternal::Stats: every call counted under its schema's label (an override keeps its
// name, a name never found is "unknown"), every re-ask by reason, and per provider.
TEST_F(EngineTest, StatsCountEveryCallPerSchemaAndProvider) {
  ASSERT_NO_FATAL_FAILURE(
      PutLongManualSchema(EngineInternal::Schemas(*engine_), "stats-t", "stats", 100));
  StructureResult named =
      Run(R"({"prompt":"CASE-GENERATE x","schemaName":"cached-ticket","tenant":"stats-t"})");
  ASSERT_EQ(named.status, Outcome::kOk) << ToJson(ResultToJson(named));
  StructureResult reask = RunInline("CASE-REASK Mike broke the build, priority seven");
  ASSERT_EQ(reask.iterations, 2) << ToJson(ResultToJson(reask));
  StructureResult missing = Run(R"({"prompt":"x","schemaName":"no-such-schema"})");
  ASSERT_EQ(missing.error_code, ErrorCode::kUnknownSchema);

  pipeline::StatsSnapshot s = EngineInternal::Stats(*engine_);
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
  ASSERT_EQ(ok.status, Outcome::kOk) << provider << ": " << ToJson(ResultToJson(ok));
  EXPECT_TRUE(ok.data.contains("name"));
  StructureResult need =
      Run(std::string(R"({"prompt":"CASE-GEN-NEED a record without a date","model":")") + provider +
          R"(","schema":)" + kPortableSchema + "}");
  ASSERT_EQ(need.status, Outcome::kNeedMoreInput) << provider << ": " << ToJson(ResultToJson(need));
  EXPECT_EQ(need.need, "the date is missing");
}

// A reply cut off before any text leaves an empty assistant turn; the re-ask must not send it
// as an empty text block (Anthropic and Gemini answer that with a 400).
TEST_P(EngineProviderTest, ReasksAfterAReplyCutOffBeforeAnyText) {
  std::string provider = GetParam();
  StructureResult r = Run(std::string(R"({"prompt":"CASE-EMPTY-CUT any record","model":")") +
                          provider + R"(","schema":)" + kPortableSchema + "}");
  ASSERT_EQ(r.status, Outcome::kOk) << provider << ": " << ToJson(ResultToJson(r));
  EXPECT_EQ(r.iterations, 2);
}

INSTANTIATE_TEST_SUITE_P(AllWireFormats, EngineProviderTest,
                         ::testing::Values("openai", "anthropic", "gemini", "legacy", "ollama",
                                           "compat", "openrouter", "vllm", "llamacpp", "llamafile"),
                         [](const ::testing::TestParamInfo<const char*>& info) {
                           return std::string(info.param);
                         });

// Every kind a config file may name has a wire format behind it, under the same name.
TEST(EngineKindsTest, EveryConfigKindHasAWireFormat) {
  for (std::string_view name : config::ProviderKinds()) {
    auto kind = providers::ParseProviderKind(name);
    ASSERT_TRUE(kind.ok()) << name << ": " << kind.status().message();
    EXPECT_EQ(providers::ProviderKindName(*kind), name);
  }
}

}  // namespace
}  // namespace structure
