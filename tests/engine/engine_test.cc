// The structure call end to end: Engine -> request actor -> provider pool -> curl -> `structure
// sim` on loopback, one scenario rule per path (tests/data/engine/scenario.json). The fixture is
// tests/engine/engine_test_fixture.h; final-tool mode, checks, array mode and prompt caching
// have test files of their own (engine_*_test.cc).
#include <gtest/gtest.h>

#include <future>
#include <string>
#include <vector>

#include "base/read_file.h"
#include "config/load_config.h"
#include "engine/engine_internal.h"
#include "providers/endpoint.h"
#include "providers/wire.h"
#include "registry/schema_registry.h"
#include "tests/engine/engine_test_fixture.h"

namespace structure {
namespace {

using testing::EngineTest;
using testing::PutLongManualSchema;

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
  StructureResult plain =
      RunInline("CASE-OK Mike, priority two", R"(,"requireProviderStrictOutput":false)");
  EXPECT_EQ(plain.mode, "fallback");
  // Every path that is not strict says why.
  EXPECT_EQ(plain.mode_reason,
            "requireProviderStrictOutput is false: the schema goes in the prompt and the answer "
            "is validated locally");
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
