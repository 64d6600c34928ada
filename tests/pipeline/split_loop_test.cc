// The loop of a split plan, driven by hand: parts sent at once, merged and validated against
// the ORIGINAL schema, violations re-asked where they belong, rounds counted, usage summed.
#include "pipeline/loop/split_loop.h"

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "pipeline/call_trace.h"
#include "pipeline/loop/loop_run.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/schema_stage.h"

namespace structure::pipeline {
namespace {

using providers::ProviderCall;
using providers::ProviderReply;

// 12 string properties f0..f11 (f0..f3 required) plus `extra` keywords, split in parts of at
// most 4 fields (max_fields_per_call on openai-strict).
Json Schema(const std::string& extra = "") {
  std::string props;
  for (int i = 0; i < 12; ++i)
    props += (i ? "," : "") + std::string("\"f") + std::to_string(i) + "\":{\"type\":\"string\"}";
  return *ParseJson("{\"type\":\"object\",\"properties\":{" + props +
                    "},\"required\":[\"f0\",\"f1\",\"f2\",\"f3\"]" +
                    (extra.empty() ? "" : "," + extra) + "}");
}

LoopSpec Spec(const Json& schema, int max_loops = 3, int64_t budget = 0) {
  auto resolved = ResolveSchema(schema, "inline");
  EXPECT_TRUE(resolved.ok());
  Profile profile = *FindProfile("openai-strict");
  profile.max_fields_per_call = 4;
  auto plan = MakeLoopPlan(*resolved, profile, PlanOptions{});
  EXPECT_TRUE(plan.ok());
  LoopSpec spec;
  spec.plan = *plan;
  spec.prompt = "the text";
  spec.model = "m";
  spec.max_loops = max_loops;
  spec.token_budget = budget;
  return spec;
}

// The fields a call's schema asks for (the envelope's result object).
std::vector<std::string> FieldsAsked(const ProviderCall& call) {
  const Json& s = *call.schema;
  const Json* result = s.find("properties")->find("result")->find("anyOf");
  std::vector<std::string> out;
  for (const auto& [k, v] : result->as_array()[0].find("properties")->as_object()) out.push_back(k);
  return out;
}

ProviderReply Reply(const std::string& result_json, int64_t in = 100) {
  ProviderReply r;
  r.content = "{\"result\":" + result_json + ",\"_need\":null}";
  r.usage.input_tokens = in;
  r.usage.output_tokens = 10;
  return r;
}

// Every asked field set to `value` (or to its name when value is empty).
ProviderReply Answer(const ProviderCall& call, const std::string& value = "") {
  Json o = Json::MakeObject();
  for (const std::string& f : FieldsAsked(call)) o.set(f, Json(value.empty() ? f : value));
  return Reply(ToJson(o));
}

SendCalls Calls(RunStep s) {
  EXPECT_TRUE(std::holds_alternative<SendCalls>(s));
  if (!std::holds_alternative<SendCalls>(s)) return {};
  return std::get<SendCalls>(std::move(s));
}

Finish Done(RunStep s) {
  EXPECT_TRUE(std::holds_alternative<Finish>(s));
  if (!std::holds_alternative<Finish>(s)) return {};
  return std::get<Finish>(std::move(s));
}

TEST(SplitLoop, SendsEveryPartAtOnceWithTheSamePromptInAStableOrder) {
  LoopSpec spec = Spec(Schema());
  ASSERT_NE(spec.plan->split, nullptr);
  RunState st;
  SendCalls first = Calls(RunStart(spec, st));
  ASSERT_EQ(first.calls.size(), 3u);
  std::set<std::string> asked;
  for (size_t i = 0; i < first.calls.size(); ++i) {
    EXPECT_EQ(first.calls[i].slot, static_cast<int>(i));
    EXPECT_EQ(first.calls[i].call.system, first.calls[0].call.system);
    EXPECT_EQ(first.calls[i].call.turns.front().text, "the text");
    for (const std::string& f : FieldsAsked(first.calls[i].call))
      EXPECT_TRUE(asked.insert(f).second) << f << " asked twice";
  }
  EXPECT_EQ(asked.size(), 12u);
  EXPECT_NE(first.calls[0].call.cache_key, first.calls[1].call.cache_key);
  // The same plan asks the same way again: a stable prefix per part.
  RunState again;
  SendCalls second = Calls(RunStart(spec, again));
  for (size_t i = 0; i < 3; ++i)
    EXPECT_EQ(second.calls[i].call.schema.text(), first.calls[i].call.schema.text());
}

TEST(SplitLoop, MergesTheAnswersAndCountsOneRoundAndEveryCallsUsage) {
  LoopSpec spec = Spec(Schema());
  RunState st;
  SendCalls first = Calls(RunStart(spec, st));
  EXPECT_TRUE(Calls(RunOnReply(spec, st, 2, Answer(first.calls[2].call))).calls.empty());
  EXPECT_TRUE(Calls(RunOnReply(spec, st, 0, Answer(first.calls[0].call))).calls.empty());
  Finish f = Done(RunOnReply(spec, st, 1, Answer(first.calls[1].call)));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(f.result.data.size(), 12u);
  EXPECT_EQ(ToJson(*f.result.data.find("f7")), "\"f7\"");
  EXPECT_EQ(f.result.iterations, 1);
  EXPECT_EQ(f.result.parts, 3);
  EXPECT_EQ(f.result.mode, "split");
  EXPECT_EQ(f.result.usage.input_tokens, 300);
  EXPECT_NE(f.result.mode_reason.find("max_fields_per_call"), std::string::npos);
}

TEST(SplitLoop, AViolationIsReaskedOnlyInThePartThatOwnsIt) {
  Json schema = Schema();
  schema["properties"]["f6"].set("maxLength", Json(1));  // "f6" is too long
  LoopSpec spec = Spec(schema);
  RunState st;
  SendCalls first = Calls(RunStart(spec, st));
  int owner = -1;
  for (const SlotCall& c : first.calls)
    for (const std::string& f : FieldsAsked(c.call))
      if (f == "f6") owner = c.slot;
  ASSERT_GE(owner, 0);
  for (const SlotCall& c : first.calls) {
    if (c.slot == owner) continue;
    EXPECT_TRUE(Calls(RunOnReply(spec, st, c.slot, Answer(c.call))).calls.empty());
  }
  SendCalls reask = Calls(RunOnReply(spec, st, owner, Answer(first.calls[owner].call)));
  ASSERT_EQ(reask.calls.size(), 1u);
  EXPECT_EQ(reask.calls[0].slot, owner);
  EXPECT_NE(reask.calls[0].call.turns.back().text.find("/f6"), std::string::npos);
  Finish f = Done(RunOnReply(spec, st, owner, Answer(reask.calls[0].call, "k")));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(ToJson(*f.result.data.find("f6")), "\"k\"");
  EXPECT_EQ(f.result.iterations, 2);  // rounds, not calls (there were 4)
  EXPECT_EQ(f.result.usage.input_tokens, 400);
}

TEST(SplitLoop, ACrossPartViolationIsReaskedInOneCallHoldingExactlyItsFields) {
  // f11 present requires f4..f10, which sit in other parts.
  LoopSpec spec =
      Spec(Schema(R"("dependentRequired":{"f11":["f4","f5","f6","f7","f8","f9","f10"]})"));
  const SplitLoopPlan& plan = *spec.plan->split;
  ASSERT_EQ(plan.cross.size(), 1u);
  RunState st;
  SendCalls first = Calls(RunStart(spec, st));
  const std::set<std::string> given = {"f0", "f1", "f2", "f3", "f11"};
  RunStep step = SendCalls{};
  for (const SlotCall& c : first.calls) {
    // Every part leaves its optional fields out (null), except f11.
    Json o = Json::MakeObject();
    for (const std::string& f : FieldsAsked(c.call)) o.set(f, given.count(f) ? Json(f) : Json());
    step = RunOnReply(spec, st, c.slot, Reply(ToJson(o)));
  }
  SendCalls fix = Calls(std::move(step));
  ASSERT_EQ(fix.calls.size(), 1u);
  std::vector<std::string> fields = FieldsAsked(fix.calls[0].call);
  std::sort(fields.begin(), fields.end());
  EXPECT_EQ(fields, (std::vector<std::string>{"f10", "f11", "f4", "f5", "f6", "f7", "f8", "f9"}));
  EXPECT_NE(fix.calls[0].call.turns.back().text.find("f11"), std::string::npos);
  Finish f = Done(RunOnReply(spec, st, fix.calls[0].slot, Answer(fix.calls[0].call)));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(ToJson(*f.result.data.find("f9")), "\"f9\"");
  EXPECT_EQ(f.result.iterations, 2);
}

TEST(SplitLoop, NeedMoreInputFromAnyPartMakesTheWholeResultNeedAndJoinsTheTexts) {
  LoopSpec spec = Spec(Schema());
  RunState st;
  SendCalls first = Calls(RunStart(spec, st));
  ProviderReply need;
  need.content = R"({"result":null,"_need":"no date given"})";
  ProviderReply need2;
  need2.content = R"({"result":null,"_need":"no owner named"})";
  EXPECT_TRUE(Calls(RunOnReply(spec, st, 0, need)).calls.empty());
  EXPECT_TRUE(Calls(RunOnReply(spec, st, 1, Answer(first.calls[1].call))).calls.empty());
  Finish f = Done(RunOnReply(spec, st, 2, need2));
  EXPECT_EQ(f.result.status, Outcome::kNeedMoreInput);
  EXPECT_EQ(f.result.need, "no date given; no owner named");
}

TEST(SplitLoop, MaxLoopsCountsRoundsAndEndsStale) {
  Json schema = Schema();
  schema["properties"]["f0"].set("maxLength", Json(1));
  LoopSpec spec = Spec(schema, 2);
  RunState st;
  SendCalls calls = Calls(RunStart(spec, st));
  SendCalls again;
  for (const SlotCall& c : calls.calls)
    for (SlotCall& next : Calls(RunOnReply(spec, st, c.slot, Answer(c.call))).calls)
      again.calls.push_back(std::move(next));
  ASSERT_EQ(again.calls.size(), 1u);  // the part of f0, asked again at once
  Finish f = Done(RunOnReply(spec, st, again.calls[0].slot, Answer(again.calls[0].call)));
  EXPECT_EQ(f.result.status, Outcome::kStale);
  EXPECT_EQ(f.result.iterations, 2);
  ASSERT_FALSE(f.result.errors.empty());
  EXPECT_NE(f.result.errors[0].find("/f0"), std::string::npos);
}

TEST(SplitLoop, ASchemaTooLargeRefusalEndsWithTheRefusedGrammarOnceTheOthersAreBack) {
  LoopSpec spec = Spec(Schema());
  RunState st;
  SendCalls first = Calls(RunStart(spec, st));
  Status refused(Code::kSchemaTooLarge,
                 "HTTP 400 from anthropic: The compiled grammar is too large");
  EXPECT_TRUE(Calls(RunOnReply(spec, st, 1, refused)).calls.empty());
  EXPECT_TRUE(Calls(RunOnReply(spec, st, 0, Answer(first.calls[0].call))).calls.empty());
  Finish f = Done(RunOnReply(spec, st, 2, Answer(first.calls[2].call)));
  EXPECT_EQ(f.result.status, Outcome::kError);
  EXPECT_EQ(f.result.error_code, ErrorCode::kSchemaTooLarge);
  EXPECT_EQ(f.result.rejected_grammar, spec.plan->split->parts[1]->grammar_size);
  EXPECT_GT(f.result.rejected_grammar, 0u);
  EXPECT_EQ(f.result.usage.input_tokens, 200);
}

// A call's estimate as the loop counts it against the token budget: prompt + output cap.
int64_t Cost(const ProviderCall& call) {
  return providers::EstimatePromptTokens(call) + call.max_tokens;
}

TEST(SplitLoop, TheFirstRoundOverTheTokenBudgetIsAnErrorBeforeAnyCall) {
  LoopSpec spec = Spec(Schema(), 3, 100);
  RunState st;
  Finish f = Done(RunStart(spec, st));
  EXPECT_EQ(f.result.status, Outcome::kError);
  EXPECT_EQ(f.result.error_code, ErrorCode::kTokenBudgetExhausted);
  ASSERT_FALSE(f.result.errors.empty());
  EXPECT_NE(f.result.errors[0].find("the 3 parts"), std::string::npos) << f.result.errors[0];
  EXPECT_EQ(f.result.usage.input_tokens, 0);
}

TEST(SplitLoop, TheTokenBudgetCoversEveryPartAndEveryCallBeforeItIsSent) {
  Json schema = Schema();
  schema["properties"]["f0"].set("maxLength", Json(1));
  LoopSpec spec = Spec(schema);
  spec.max_tokens = 20;
  RunState probe;
  int64_t first_round = 0;
  for (const SlotCall& c : Calls(RunStart(spec, probe)).calls) first_round += Cost(c.call);
  // The first round fits exactly; its replies use their prompts and 10 output tokens each, so
  // the re-ask (a prompt of its own plus its cap of 20) does not.
  spec.token_budget = first_round;
  RunState st;
  SendCalls calls = Calls(RunStart(spec, st));
  ASSERT_EQ(calls.calls.size(), 3u);
  RunStep step = SendCalls{};
  for (size_t i = calls.calls.size(); i-- > 0;) {  // the part of f0 last
    ProviderReply r = Answer(calls.calls[i].call);
    r.usage.input_tokens = providers::EstimatePromptTokens(calls.calls[i].call);
    step = RunOnReply(spec, st, calls.calls[i].slot, r);
  }
  Finish f = Done(std::move(step));
  EXPECT_EQ(f.result.status, Outcome::kStale);
  EXPECT_TRUE(f.result.budget_exhausted);
  ASSERT_FALSE(f.result.errors.empty());
  EXPECT_NE(f.result.errors.back().find("token budget exhausted"), std::string::npos)
      << f.result.errors.back();
}

TEST(SplitLoop, TheTraceShowsEveryPartsCallWithItsFields) {
  LoopSpec spec = Spec(Schema());
  spec.trace = true;
  RunState st;
  SendCalls first = Calls(RunStart(spec, st));
  RunStep step = SendCalls{};
  for (const SlotCall& c : first.calls) step = RunOnReply(spec, st, c.slot, Answer(c.call));
  Finish f = Done(std::move(step));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  ASSERT_NE(f.result.call_trace, nullptr);
  ASSERT_EQ(f.result.call_trace->rounds.size(), 3u);
  std::set<std::string> fields;
  for (size_t i = 0; i < 3; ++i) {
    const TraceRound& round = f.result.call_trace->rounds[i];
    EXPECT_EQ(round.part, static_cast<int>(i));
    EXPECT_EQ(round.iteration, 1);
    EXPECT_EQ(round.verdict, "accepted");
    EXPECT_FALSE(round.fields.empty());
    fields.insert(round.fields.begin(), round.fields.end());
  }
  EXPECT_EQ(fields.size(), 12u);
  Json json = TraceToJson(*f.result.call_trace);
  EXPECT_EQ(json.find("rounds")->as_array()[2].find("part")->as_int(), 2);
}

}  // namespace
}  // namespace structure::pipeline
