// The metrics' pure parts: re-ask reasons from validator keywords, the content loop counting
// every re-ask, and the per-schema / per-provider aggregation and its JSON.
#include "pipeline/call_stats.h"

#include <gtest/gtest.h>

#include "pipeline/loop/content_loop.h"
#include "pipeline/validator/validator.h"
#include "tests/support/ticket_schema.h"

namespace structure::pipeline {
namespace {

size_t Idx(ReaskReason r) { return static_cast<size_t>(r); }

// The reasons of validating `instance` against `schema`, by name.
std::string ReasonsOf(const char* schema, const char* instance) {
  auto v = CompileSchema(*ParseJson(schema));
  EXPECT_TRUE(v.ok());
  ValidationResult r = (*v)->Validate(*ParseJson(instance), true);
  EXPECT_FALSE(r.valid) << schema << " " << instance;
  std::string out;
  for (const ValidationError& e : r.errors) {
    if (!out.empty()) out += ",";
    out += ReaskReasonName(ReaskReasonOf(e));
  }
  return out;
}

TEST(ReaskReasonTest, EachValidatorKeywordHasItsCategory) {
  EXPECT_EQ(ReasonsOf(R"({"type":"integer"})", R"("3")"), "type");
  EXPECT_EQ(ReasonsOf(R"({"required":["a"]})", "{}"), "required");
  EXPECT_EQ(ReasonsOf(R"({"additionalProperties":false})", R"({"x":1})"), "additionalProperties");
  EXPECT_EQ(ReasonsOf(R"({"enum":["a","b"]})", R"("c")"), "enum/const");
  EXPECT_EQ(ReasonsOf(R"({"const":1})", "2"), "enum/const");
  EXPECT_EQ(ReasonsOf(R"({"pattern":"^a"})", R"("b")"), "pattern");
  EXPECT_EQ(ReasonsOf(R"({"format":"email"})", R"("nope")"), "format");
  EXPECT_EQ(ReasonsOf(R"({"maximum":5})", "7"), "bounds");
  EXPECT_EQ(ReasonsOf(R"({"multipleOf":2})", "3"), "bounds");
  EXPECT_EQ(ReasonsOf(R"({"maxLength":2})", R"("abc")"), "length");
  EXPECT_EQ(ReasonsOf(R"({"maxItems":1})", "[1,2]"), "items");
  EXPECT_EQ(ReasonsOf(R"({"prefixItems":[true],"items":false})", "[1,2]"), "items");
  EXPECT_EQ(ReasonsOf(R"({"properties":{"x":false}})", R"({"x":1})"), "additionalProperties");
  EXPECT_EQ(ReasonsOf(R"({"not":{"type":"string"}})", R"("s")"), "other");
}

TEST(ReaskReasonTest, NamesAreTheIssuesCategories) {
  std::string all;
  for (size_t i = 0; i < kReaskReasonCount; ++i)
    all += std::string(ReaskReasonName(static_cast<ReaskReason>(i))) + " ";
  EXPECT_EQ(all,
            "type required additionalProperties enum/const pattern format bounds length items "
            "semantic parse need other ");
}

// A loop on the ticket schema with a semantic check that wants the name "Mike".
LoopSpec TicketSpec(int max_loops) {
  auto plan = std::make_shared<LoopPlan>();
  plan->original_schema = *ParseJson(testing::kTicketSchemaText);
  plan->provider_schema = plan->original_schema;
  plan->validator = *CompileSchema(plan->original_schema);
  LoopSpec spec;
  spec.plan = plan;
  spec.prompt = "Mike, priority two";
  spec.model = "m";
  spec.max_loops = max_loops;
  spec.semantic_check = [](const Json& d) -> std::vector<std::string> {
    if (d.find("name")->as_string() != "Mike")
      return {"/name: must be the person named in the text"};
    return {};
  };
  return spec;
}

providers::ProviderReply Answer(const std::string& text) {
  providers::ProviderReply r;
  r.content = text;
  return r;
}

TEST(ReaskCountTest, EveryReaskCountsOnceUnderEachOfItsReasons) {
  LoopSpec spec = TicketSpec(5);
  LoopState st;
  Start(spec, st);
  // Two bounds errors and a type error: one re-ask, under bounds and type.
  ASSERT_TRUE(std::holds_alternative<SendCall>(
      OnReply(spec, st, Answer(R"({"name":7,"priority":9,"x":1})"))));
  ASSERT_TRUE(std::holds_alternative<SendCall>(OnReply(spec, st, Answer("not json at all"))));
  ASSERT_TRUE(std::holds_alternative<SendCall>(
      OnReply(spec, st, Answer(R"({"name":"Bob","priority":2})"))));
  Step last = OnReply(spec, st, Answer(R"({"name":"Mike","priority":2})"));
  ASSERT_TRUE(std::holds_alternative<Finish>(last));
  const CallResult& r = std::get<Finish>(last).result;
  EXPECT_EQ(r.status, Outcome::kOk);
  EXPECT_EQ(r.iterations, 4);
  ReaskCounts want{};
  want[Idx(ReaskReason::kType)] = 1;
  want[Idx(ReaskReason::kBounds)] = 1;
  want[Idx(ReaskReason::kAdditionalProperties)] = 1;
  want[Idx(ReaskReason::kParse)] = 1;
  want[Idx(ReaskReason::kSemantic)] = 1;
  EXPECT_EQ(r.reasks, want);
}

TEST(ReaskCountTest, TheLastFailureOfAStaleCallIsNoReask) {
  LoopSpec spec = TicketSpec(2);
  LoopState st;
  Start(spec, st);
  ASSERT_TRUE(std::holds_alternative<SendCall>(
      OnReply(spec, st, Answer(R"({"name":"Mike","priority":9})"))));
  Step last = OnReply(spec, st, Answer(R"({"name":"Mike","priority":9})"));
  ASSERT_TRUE(std::holds_alternative<Finish>(last));
  const CallResult& r = std::get<Finish>(last).result;
  EXPECT_EQ(r.status, Outcome::kStale);
  EXPECT_EQ(r.reasks[Idx(ReaskReason::kBounds)], 1u);
}

CallResult Result(Outcome status, int iterations, const std::string& provider = "sim") {
  CallResult r;
  r.status = status;
  r.iterations = iterations;
  r.provider = provider;
  r.schema_origin = "registry:bundled";
  r.usage.input_tokens = 100;
  r.usage.output_tokens = 10;
  r.usage.cached_input_tokens = 60;
  r.usage.cache_write_tokens = 5;
  r.usage.reasoning_tokens = 4;
  return r;
}

TEST(CallStatsTest, CountsCallsResultsIterationsReasksAndTokensPerSchema) {
  CallStats stats;
  CallResult stale = Result(Outcome::kStale, 3);
  stale.reasks[Idx(ReaskReason::kRequired)] = 2;
  CallResult skipped = Result(Outcome::kOk, 1);
  skipped.form_ignored = true;
  stats.Record("ticket", skipped, 0.02);
  stats.Record("ticket", stale, 0.3);
  stats.Record("inline", Result(Outcome::kError, 0, "other-provider"), 70);
  StatsSnapshot s = stats.Snapshot();
  ASSERT_EQ(s.schemas.size(), 2u);
  const SchemaStats& t = s.schemas.at("ticket");
  EXPECT_EQ(t.calls, 2u);
  EXPECT_EQ(t.results[static_cast<size_t>(Outcome::kOk)], 1u);
  EXPECT_EQ(t.results[static_cast<size_t>(Outcome::kStale)], 1u);
  EXPECT_EQ(t.iterations[1], 1u);
  EXPECT_EQ(t.iterations[3], 1u);
  EXPECT_EQ(t.reasks[Idx(ReaskReason::kRequired)], 2u);
  EXPECT_EQ(t.input_tokens, 200u);
  EXPECT_EQ(t.output_tokens, 20u);
  EXPECT_EQ(t.cached_input_tokens, 120u);
  EXPECT_EQ(t.cache_write_tokens, 10u);
  EXPECT_EQ(t.reasoning_tokens, 8u);
  EXPECT_EQ(t.form_ignored, 1u);
  EXPECT_EQ(*StatsToJson(s).find("schemas")->find("ticket")->find("formIgnored"), Json(int64_t{1}));
  const ProviderStats& p = s.providers.at("sim");
  EXPECT_EQ(p.calls, 2u);
  EXPECT_EQ(p.seconds.count, 2u);
  EXPECT_DOUBLE_EQ(p.seconds.sum, 0.32);
  EXPECT_EQ(p.seconds.counts[0], 1u);                                     // <= 0.05
  EXPECT_EQ(p.seconds.counts[3], 1u);                                     // (0.25, 0.5]
  EXPECT_EQ(s.providers.at("other-provider").seconds.counts.back(), 1u);  // > 60 s
}

TEST(CallStatsTest, LabelsAreBoundedAndOverflowIntoOther) {
  CallStats stats(2);
  for (const char* name : {"a", "b", "c", "d", "inline", "inferred", "a"}) {
    stats.Record(name, Result(Outcome::kOk, 1), 0.1);
  }
  StatsSnapshot s = stats.Snapshot();
  std::string labels;
  for (const auto& [label, st] : s.schemas) labels += label + "=" + std::to_string(st.calls) + " ";
  EXPECT_EQ(labels, "a=2 b=1 inferred=1 inline=1 other=2 ");
}

TEST(CallStatsTest, SchemaLabelIsTheRegistryNameOnceFound) {
  CallResult found = Result(Outcome::kOk, 1);
  found.schema_origin = "registry:tenant:acme";  // an override keeps its name
  EXPECT_EQ(SchemaLabel(SchemaMode::kNamed, "ticket", found), "ticket");
  CallResult missing = ErrorResult(ErrorCode::kUnknownSchema, "no such schema");
  EXPECT_EQ(SchemaLabel(SchemaMode::kNamed, "made-up-name", missing), "unknown");
  EXPECT_EQ(SchemaLabel(SchemaMode::kNamed, "other", found), "other");
  EXPECT_EQ(SchemaLabel(SchemaMode::kJson, "", found), "inline");
  EXPECT_EQ(SchemaLabel(SchemaMode::kText, "a ticket", found), "inferred");
}

// A server's metrics are read by every tenant: a tenant's or project's own schema is counted
// without its name (an override of a bundled schema too: its existence is the tenant's).
TEST(CallStatsTest, TenantAndProjectSchemasAreCountedWithoutTheirNamesWhenHidden) {
  CallResult tenant = Result(Outcome::kOk, 1);
  tenant.schema_origin = "registry:tenant:acme";
  CallResult project = Result(Outcome::kOk, 1);
  project.schema_origin = "registry:project:acme/billing";
  CallResult bundled = Result(Outcome::kOk, 1);
  bundled.schema_origin = "registry:bundled";
  EXPECT_EQ(SchemaLabel(SchemaMode::kNamed, "acme-merger-form", tenant, true), "tenant");
  EXPECT_EQ(SchemaLabel(SchemaMode::kNamed, "ticket", project, true), "project");
  EXPECT_EQ(SchemaLabel(SchemaMode::kNamed, "ticket", bundled, true), "ticket");
  EXPECT_EQ(SchemaLabel(SchemaMode::kNamed, "acme-merger-form", tenant, false), "acme-merger-form");
  // The labels are fixed ones: never "other", whatever the number of names.
  CallStats stats(1);
  stats.Record("a", bundled, 0.1);
  stats.Record("tenant", tenant, 0.1);
  stats.Record("project", project, 0.1);
  std::string labels;
  for (const auto& [label, st] : stats.Snapshot().schemas) labels += label + " ";
  EXPECT_EQ(labels, "a project tenant ");
}

TEST(CallStatsTest, JsonHasEveryStatusAndReasonAndCumulativeLatencyBuckets) {
  CallStats stats;
  CallResult r = Result(Outcome::kOk, 2);
  r.reasks[Idx(ReaskReason::kEnumConst)] = 1;
  stats.Record("ticket", r, 0.2);
  std::string json = ToJson(StatsToJson(stats.Snapshot()));
  EXPECT_EQ(
      json,
      R"({"schemas":{"ticket":{"calls":1,"results":{"ok":1,"need-more-input":0,"stale":0,"error":0},)"
      R"("iterations":{"2":1},"reasks":{"type":0,"required":0,"additionalProperties":0,"enum/const":1,)"
      R"("pattern":0,"format":0,"bounds":0,"length":0,"items":0,"semantic":0,"parse":0,"need":0,"other":0},)"
      R"("tokens":{"input":100,"output":10,"cachedInput":60,"cacheWrite":5,"reasoning":4},"formIgnored":0,)"
      R"("truncated":0,"tokenBudgetExhausted":0,"splitCalls":0,"fallbackCalls":0,"fallbackReasons":{}}},)"
      R"("providers":{"sim":{"calls":1,"latencySeconds":{"sum":0.2,"buckets":{"0.05":0,"0.1":0,)"
      R"("0.25":1,"0.5":1,"1":1,"2.5":1,"5":1,"10":1,"30":1,"60":1,"+Inf":1}}}}})");
}

TEST(CallStatsTest, CountsFallbackCallsByReason) {
  CallStats stats;
  CallResult plain = Result(Outcome::kOk, 1);
  plain.mode = "fallback";
  plain.mode_reason = "m has no structured outputs";
  CallResult unsaid = plain;
  unsaid.mode_reason.clear();
  CallResult strict = Result(Outcome::kOk, 1);
  strict.mode = "strict";
  for (const CallResult& r : {plain, plain, unsaid, strict}) stats.Record("ticket", r, 0.1);
  // More distinct reasons than the cap count under "other".
  for (size_t i = 0; i < kMaxFallbackReasons + 3; ++i) {
    CallResult r = plain;
    r.mode_reason = "reason " + std::to_string(i);
    stats.Record("many", r, 0.1);
  }
  const StatsSnapshot snapshot = stats.Snapshot();
  const SchemaStats& s = snapshot.schemas.at("ticket");
  EXPECT_EQ(s.fallback_calls, 3u);
  EXPECT_EQ(s.fallback_reasons.at("m has no structured outputs"), 2u);
  EXPECT_EQ(s.fallback_reasons.at("unknown"), 1u);
  const SchemaStats& many = snapshot.schemas.at("many");
  EXPECT_EQ(many.fallback_calls, kMaxFallbackReasons + 3);
  EXPECT_EQ(many.fallback_reasons.size(), kMaxFallbackReasons + 1);
  EXPECT_EQ(many.fallback_reasons.at("other"), 3u);
  EXPECT_EQ(ToJson(*StatsToJson(snapshot).find("schemas")->find("ticket")->find("fallbackReasons")),
            R"({"m has no structured outputs":2,"unknown":1})");
}

TEST(CallStatsTest, CountsTruncatedAnswersAndCallsTheBudgetEnded) {
  CallStats stats;
  CallResult cut = Result(Outcome::kOk, 1);
  cut.truncated = true;
  CallResult stale = Result(Outcome::kStale, 2);
  stale.budget_exhausted = true;
  CallResult error = Result(Outcome::kError, 0);
  error.error_code = ErrorCode::kTokenBudgetExhausted;
  for (const CallResult& r : {cut, stale, error, Result(Outcome::kOk, 1)})
    stats.Record("ticket", r, 0.1);
  const StatsSnapshot snapshot = stats.Snapshot();
  const SchemaStats& s = snapshot.schemas.at("ticket");
  EXPECT_EQ(s.truncated, 1u);
  EXPECT_EQ(s.budget_exhausted, 2u);
}

}  // namespace
}  // namespace structure::pipeline
