#include "pipeline/loop/content_loop.h"

#include <gtest/gtest.h>

#include <functional>

#include "pipeline/schema_stage.h"
#include "tests/pipeline/loop_test_util.h"

namespace structure::pipeline {
namespace {

using providers::FinishKind;
using providers::ProviderReply;
using providers::Role;
using testing::AsFinish;
using testing::AsSend;
using testing::kSchema;
using testing::Spec;
using testing::Text;
using testing::Tool;

TEST(ContentLoopTest, AcceptsAValidAnswerAtOnce) {
  LoopSpec spec = Spec();
  LoopState st;
  const SendCall& first = AsSend(Start(spec, st));
  ASSERT_EQ(first.call.turns.size(), 1u);
  EXPECT_EQ(first.call.turns[0].text, spec.prompt);
  EXPECT_NE(first.call.system.find("Do not invent values"), std::string::npos);
  const Finish& f = AsFinish(OnReply(spec, st, Text(R"({"name":"Mike","priority":5})")));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(ToJson(f.result.data), R"({"name":"Mike","priority":5})");
  EXPECT_EQ(f.result.iterations, 1);
  EXPECT_EQ(f.result.usage.input_tokens, 10);
  EXPECT_EQ(f.result.mode, "strict");
}

TEST(ContentLoopTest, ReasksWithTheExactReasonAndKeepsThePreviousAnswer) {
  LoopSpec spec = Spec();
  LoopState st;
  Start(spec, st);
  const std::string bad = R"({"name":"Mike","priority":7})";
  Step s = OnReply(spec, st, Text(bad));
  const SendCall& again = AsSend(s);
  ASSERT_EQ(again.call.turns.size(), 3u);
  EXPECT_EQ(again.call.turns[1].role, Role::kAssistant);
  EXPECT_EQ(again.call.turns[1].text, bad);
  EXPECT_EQ(again.call.turns[2].role, Role::kUser);
  EXPECT_EQ(again.call.turns[2].text,
            "The previous output did not conform to the schema:\n"
            "- /priority: value must be <= 5 (was 7)\n\n"
            "Please correct these and try again. Do not change fields that were valid.");
  const Finish& f = AsFinish(OnReply(spec, st, Text(R"({"name":"Mike","priority":5})")));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(f.result.iterations, 2);
  EXPECT_EQ(f.result.usage.input_tokens, 20);
  EXPECT_EQ(f.result.usage.output_tokens, 10);
}

TEST(ContentLoopTest, SumsCacheReadsAndWritesOverEveryCallIntoTheResult) {
  LoopSpec spec = Spec();
  LoopState st;
  Start(spec, st);
  ProviderReply first = Text(R"({"name":"Mike","priority":7})", 3000, 5);
  first.usage.cache_write_tokens = 2900;
  AsSend(OnReply(spec, st, first));
  ProviderReply second = Text(R"({"name":"Mike","priority":5})", 3100, 5);
  second.usage.cached_input_tokens = 2900;
  const Finish& f = AsFinish(OnReply(spec, st, second));
  EXPECT_EQ(f.result.usage.input_tokens, 6100);
  EXPECT_EQ(f.result.usage.cached_input_tokens, 2900);
  EXPECT_EQ(f.result.usage.cache_write_tokens, 2900);
  Json usage = *ResultToJson(f.result).find("usage");
  EXPECT_EQ(
      ToJson(usage),
      R"({"inputTokens":6100,"outputTokens":10,"cachedInputTokens":2900,"cacheWriteTokens":2900,"reasoningTokens":0})");
}

TEST(ContentLoopTest, UsageFieldsAreZeroWhenTheProviderReportsNoCache) {
  LoopSpec spec = Spec();
  LoopState st;
  Start(spec, st);
  const Finish& f = AsFinish(OnReply(spec, st, Text(R"({"name":"Mike","priority":5})")));
  Json usage = *ResultToJson(f.result).find("usage");
  EXPECT_EQ(*usage.find("cachedInputTokens"), Json(0));
  EXPECT_EQ(*usage.find("cacheWriteTokens"), Json(0));
}

// The stable part first: instructions, manual, schema in the system prompt, identical on every
// call and every re-ask of the schema; the user's text only in the turns.
TEST(ContentLoopTest, SystemPromptIsTheStablePrefixAndHoldsNoneOfTheRequest) {
  LoopSpec spec = Spec([](LoopPlan& p) {
    p.strict = false;  // fallback path: the schema is shown in the prompt
    p.manual = "MANUAL: priority 1 is the highest.";
  });
  LoopState st;
  const SendCall& first = AsSend(Start(spec, st));
  const std::string& sys = first.call.system;
  size_t rule = sys.find("Do not invent values");
  size_t manual = sys.find("MANUAL: priority 1");
  size_t schema = sys.find("The JSON Schema:");
  ASSERT_NE(rule, std::string::npos);
  ASSERT_NE(manual, std::string::npos);
  ASSERT_NE(schema, std::string::npos);
  EXPECT_LT(rule, manual);
  EXPECT_LT(manual, schema);
  EXPECT_EQ(sys.find(spec.prompt), std::string::npos);
  const SendCall& again = AsSend(OnReply(spec, st, Text(R"({"name":"Mike","priority":7})")));
  EXPECT_EQ(again.call.system, sys);
  EXPECT_EQ(again.call.turns.front().text, spec.prompt);
}

TEST(ContentLoopTest, EveryCallCarriesThePlansCacheKeyUnlessCachingIsOff) {
  LoopSpec spec = Spec([](LoopPlan& p) {
    p.cache_key = "ticket@1.0";
    p.cache_min_tokens = 2048;
  });
  LoopState st;
  const SendCall& first = AsSend(Start(spec, st));
  EXPECT_EQ(first.call.cache_key, "ticket@1.0");
  EXPECT_EQ(first.call.cache_min_tokens, 2048);
  const SendCall& again = AsSend(OnReply(spec, st, Text(R"({"name":"Mike","priority":7})")));
  EXPECT_EQ(again.call.cache_key, "ticket@1.0");
  LoopSpec off = Spec([](LoopPlan& p) {
    p.cache_key = "ticket@1.0";
    p.prompt_cache = false;
  });
  const SendCall& none = AsSend(Start(off, st));
  EXPECT_EQ(none.call.cache_key, "");
  EXPECT_LT(none.call.cache_min_tokens, 0);
}

TEST(PromptCacheKeyTest, NameAndVersionForTheRegistryAHashOtherwiseAtMost64) {
  ResolvedSchema named;
  named.schema = *ParseJson(kSchema);
  named.name = "user-action-record";
  named.version = "1.2";
  named.origin = "registry:tenant:acme";
  EXPECT_EQ(PromptCacheKey(named), "user-action-record@1.2");
  ResolvedSchema inline_schema;
  inline_schema.schema = named.schema;
  inline_schema.origin = "inline";
  std::string key = PromptCacheKey(inline_schema);
  EXPECT_EQ(key.rfind("inline:", 0), 0u) << key;
  EXPECT_EQ(key.size(), 7u + 16u);
  EXPECT_EQ(PromptCacheKey(inline_schema), key);  // stable
  inline_schema.schema = *ParseJson(R"({"type":"string"})");
  EXPECT_NE(PromptCacheKey(inline_schema), key);
  named.name = std::string(80, 'n');
  std::string long_key = PromptCacheKey(named);
  EXPECT_EQ(long_key.size(), 64u);
  EXPECT_EQ(long_key.substr(0, 47), std::string(47, 'n'));
  auto plan = MakeLoopPlan(named, *FindProfile("openai-strict"), {});
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  EXPECT_EQ((*plan)->cache_key, long_key);
  EXPECT_TRUE((*plan)->prompt_cache);
}

TEST(ContentLoopTest, GoesStaleAfterMaxLoopsWithTheLastErrors) {
  LoopSpec spec = Spec();
  spec.max_loops = 2;
  LoopState st;
  Start(spec, st);
  AsSend(OnReply(spec, st, Text(R"({"name":"Mike","priority":7})")));
  const Finish& f = AsFinish(OnReply(spec, st, Text(R"({"name":"Mike","priority":0})")));
  EXPECT_EQ(f.result.status, Outcome::kStale);
  ASSERT_EQ(f.result.errors.size(), 1u);
  EXPECT_EQ(f.result.errors[0], "/priority: value must be >= 1 (was 0)");
  EXPECT_EQ(f.result.iterations, 2);
}

TEST(ContentLoopTest, RetriesSendOnlyTheLatestRound) {
  LoopSpec spec = Spec();
  spec.max_loops = 5;
  LoopState st;
  Start(spec, st);
  AsSend(OnReply(spec, st, Text(R"({"name":"Mike","priority":7})")));
  const SendCall& third = AsSend(OnReply(spec, st, Text(R"({"name":"Mike","priority":9})")));
  ASSERT_EQ(third.call.turns.size(), 3u);
  EXPECT_EQ(third.call.turns[1].text, R"({"name":"Mike","priority":9})");
}

TEST(ContentLoopTest, NeedAnswerBecomesNeedMoreInput) {
  LoopSpec spec = Spec();
  LoopState st;
  Start(spec, st);
  const Finish& f =
      AsFinish(OnReply(spec, st, Text(R"({"_need":"the priority is not in the input"})")));
  EXPECT_EQ(f.result.status, Outcome::kNeedMoreInput);
  EXPECT_EQ(f.result.need, "the priority is not in the input");
}

TEST(ContentLoopTest, NeedToolCallBecomesNeedMoreInput) {
  LoopSpec spec = Spec([](LoopPlan& p) { p.need = providers::NeedChannel::kTool; });
  LoopState st;
  const SendCall& first = AsSend(Start(spec, st));
  EXPECT_NE(first.call.system.find("call the tool \"need_more_input\""), std::string::npos);
  const Finish& f =
      AsFinish(OnReply(spec, st, Tool("need_more_input", R"({"missing":"the date"})")));
  EXPECT_EQ(f.result.status, Outcome::kNeedMoreInput);
  EXPECT_EQ(f.result.need, "the date");
}

TEST(ContentLoopTest, ProviderFailureIsAnErrorWithAStableCode) {
  LoopSpec spec = Spec();
  LoopState st;
  Start(spec, st);
  const Finish& f =
      AsFinish(OnReply(spec, st, Result<ProviderReply>(Status(Code::kUnauthenticated, "bad key"))));
  EXPECT_EQ(f.result.status, Outcome::kError);
  EXPECT_EQ(f.result.error_code, ErrorCode::kProviderAuth);
  EXPECT_EQ(f.result.iterations, 0);
}

TEST(ContentLoopTest, RefusalIsAnError) {
  LoopSpec spec = Spec();
  LoopState st;
  Start(spec, st);
  ProviderReply r = Text("");
  r.finish = FinishKind::kRefusal;
  r.refusal = "I can't help with that.";
  const Finish& f = AsFinish(OnReply(spec, st, r));
  EXPECT_EQ(f.result.error_code, ErrorCode::kRefusal);
  EXPECT_NE(f.result.errors[0].find("I can't help with that."), std::string::npos);
}

TEST(ContentLoopTest, TruncatedAnswerIsReaskedToBeConcise) {
  LoopSpec spec = Spec();
  LoopState st;
  Start(spec, st);
  ProviderReply r = Text(R"({"name":"Mi)");
  r.finish = FinishKind::kLength;
  const SendCall& again = AsSend(OnReply(spec, st, r));
  EXPECT_NE(again.call.turns.back().text.find("cut off at the token limit"), std::string::npos);
}

TEST(ContentLoopTest, FallbackPathFindsJsonInProseAndShowsTheSchema) {
  LoopSpec spec = Spec([](LoopPlan& p) { p.strict = false; });
  LoopState st;
  const SendCall& first = AsSend(Start(spec, st));
  EXPECT_TRUE(first.call.schema->is_null());
  EXPECT_NE(first.call.system.find("\"maximum\":5"), std::string::npos);
  const Finish& f = AsFinish(
      OnReply(spec, st, Text("Here it is:\n```json\n{\"name\":\"Mike\",\"priority\":2}\n```")));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(f.result.mode, "fallback");
}

TEST(ContentLoopTest, UnparsableAnswerBecomesAReason) {
  LoopSpec spec = Spec([](LoopPlan& p) { p.strict = false; });
  LoopState st;
  Start(spec, st);
  const SendCall& again = AsSend(OnReply(spec, st, Text("no idea")));
  EXPECT_NE(again.call.turns.back().text.find(
                "- (root): the answer is not valid JSON: no JSON object found"),
            std::string::npos)
      << again.call.turns.back().text;
}

TEST(ContentLoopTest, LiftRunsBeforeValidation) {
  LoopSpec spec = Spec([](LoopPlan& p) {
    p.lift = [](Json& out) -> Result<Json> {
      if (out.find("priority") && out.find("priority")->is_null()) out.erase("priority");
      out.set("priority", 3);
      return std::move(out);
    };
  });
  LoopState st;
  Start(spec, st);
  const Finish& f = AsFinish(OnReply(spec, st, Text(R"({"name":"Mike","priority":null})")));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(f.result.data.find("priority")->as_int(), 3);
}

// A budget of two calls' worth, with calls that cost more than their estimate: the loop stops
// before a call that could take it over, never after.
TEST(ContentLoopTest, FinalToolRejectedCallReturnsAsToolError) {
  LoopSpec spec = Spec([](LoopPlan& p) { p.final_tool = true; });
  LoopState st;
  Start(spec, st);
  const SendCall& again =
      AsSend(OnReply(spec, st, Tool("submit", R"({"name":"Mike","priority":7})")));
  ASSERT_EQ(again.call.turns.size(), 3u);
  EXPECT_EQ(again.call.turns[1].tool_calls.at(0).name, "submit");
  EXPECT_EQ(again.call.turns[2].role, Role::kTool);
  EXPECT_TRUE(again.call.turns[2].is_error);
  EXPECT_EQ(again.call.turns[2].tool_call_id, "call_1");
  EXPECT_NE(again.call.turns[2].text.find("/priority: value must be <= 5 (was 7)"),
            std::string::npos);
  const Finish& f = AsFinish(OnReply(spec, st, Tool("submit", R"({"name":"Mike","priority":4})")));
  EXPECT_EQ(f.result.status, Outcome::kOk);
}

TEST(ContentLoopTest, FinalToolTwoNudgesThenNoFinalAnswer) {
  LoopSpec spec = Spec([](LoopPlan& p) { p.final_tool = true; });
  LoopState st;
  Start(spec, st);
  const SendCall& n1 = AsSend(OnReply(spec, st, Text("I think the priority is high.")));
  EXPECT_NE(n1.call.turns.back().text.find("call the tool \"submit\""), std::string::npos);
  AsSend(OnReply(spec, st, Text("Still thinking.")));
  const Finish& f = AsFinish(OnReply(spec, st, Text("Done, it's Mike.")));
  EXPECT_EQ(f.result.status, Outcome::kError);
  EXPECT_EQ(f.result.error_code, ErrorCode::kNoFinalAnswer);
  EXPECT_EQ(f.result.iterations, 0) << "nudged answers are not iterations";
  EXPECT_EQ(f.result.usage.input_tokens, 30) << "but their tokens count";
}

// Each nudge says what the reply did (before: "You answered in prose" for everything) and takes
// the place of the previous one, so the conversation does not grow with every nudge.
TEST(ContentLoopTest, FinalToolNudgesSayWhatHappenedAndDoNotPileUp) {
  LoopSpec spec = Spec([](LoopPlan& p) {
    p.final_tool = true;
    p.max_nudges = 4;
  });
  LoopState st;
  Start(spec, st);
  const SendCall& empty = AsSend(OnReply(spec, st, Text("")));
  ASSERT_EQ(empty.call.turns.size(), 3u);
  EXPECT_EQ(empty.call.turns.back().text.rfind("Your reply was empty.", 0), 0u)
      << empty.call.turns.back().text;
  const SendCall& json = AsSend(OnReply(spec, st, Text(R"({"name":"Mike","priority":2})")));
  ASSERT_EQ(json.call.turns.size(), 3u) << "the nudge replaces the previous one";
  EXPECT_EQ(json.call.turns[1].text, R"({"name":"Mike","priority":2})");
  EXPECT_EQ(json.call.turns.back().text.rfind("You wrote the answer as text.", 0), 0u);
  ProviderReply cut = Text("");
  cut.finish = FinishKind::kLength;
  const SendCall& cut_off = AsSend(OnReply(spec, st, cut));
  EXPECT_NE(cut_off.call.turns.back().text.find("cut off at the output limit"), std::string::npos);
  const SendCall& other = AsSend(OnReply(spec, st, Tool("search", R"({"q":"Mike"})")));
  EXPECT_EQ(
      other.call.turns.back().text.rfind("You called \"search\", which is not a tool here.", 0),
      0u);
  ASSERT_EQ(other.call.turns.size(), 3u);
  const Finish& f = AsFinish(OnReply(spec, st, Text("It is Mike.")));
  EXPECT_EQ(f.result.error_code, ErrorCode::kNoFinalAnswer);
  ASSERT_EQ(f.result.errors.size(), 1u);
  EXPECT_EQ(f.result.errors.back(),
            "the model did not call the final tool \"submit\" in 5 replies (the last was prose)");
}

struct Call {
  std::string id, name, arguments;
};

ProviderReply Tools(const std::vector<Call>& calls) {
  ProviderReply r;
  r.finish = FinishKind::kToolUse;
  for (const Call& c : calls) r.tool_calls.push_back({c.id, c.name, c.arguments, ""});
  return r;
}

LoopSpec FinalSpec() {
  return Spec([](LoopPlan& p) {
    p.final_tool = true;
    p.need = providers::NeedChannel::kTool;
  });
}

TEST(ContentLoopTest, FinalToolNudgesDoNotUseIterations) {
  LoopSpec spec = FinalSpec();
  spec.max_loops = 1;
  LoopState st;
  Start(spec, st);
  AsSend(OnReply(spec, st, Text("Let me think.")));
  AsSend(OnReply(spec, st, Text("Still thinking.")));
  const Finish& f = AsFinish(OnReply(spec, st, Tool("submit", R"({"name":"Mike","priority":4})")));
  EXPECT_EQ(f.result.status, Outcome::kOk) << ToJson(ResultToJson(f.result));
  EXPECT_EQ(f.result.iterations, 1);
}

TEST(ContentLoopTest, FinalToolARejectedCallFollowedByAValidOneTakesTheValidOne) {
  LoopSpec spec = FinalSpec();
  LoopState st;
  Start(spec, st);
  const Finish& f = AsFinish(OnReply(spec, st,
                                     Tools({{"c1", "submit", R"({"name":"Mike","priority":9})"},
                                            {"c2", "submit", R"({"name":"Mike","priority":3})"},
                                            {"c3", "submit", R"({"name":"Bob","priority":1})"}})));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(ToJson(f.result.data), R"({"name":"Mike","priority":3})")
      << "the first valid call wins";
  EXPECT_EQ(f.result.iterations, 1);
}

TEST(ContentLoopTest, FinalToolAValidCallBeatsANeedCallInTheSameReply) {
  LoopSpec spec = FinalSpec();
  LoopState st;
  Start(spec, st);
  const Finish& f = AsFinish(OnReply(spec, st,
                                     Tools({{"n", "need_more_input", R"({"_need":"the date"})"},
                                            {"s", "submit", R"({"name":"Mike","priority":2})"}})));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  // With the final call rejected, the need call answers.
  LoopState st2;
  Start(spec, st2);
  const Finish& n = AsFinish(OnReply(spec, st2,
                                     Tools({{"s", "submit", R"({"name":"Mike","priority":8})"},
                                            {"n", "need_more_input", R"({"_need":"the date"})"}})));
  EXPECT_EQ(n.result.status, Outcome::kNeedMoreInput);
  EXPECT_EQ(n.result.need, "the date");
}

TEST(ContentLoopTest, FinalToolRejectedCallsEachGetTheirErrorAndOthersNotRun) {
  LoopSpec spec = Spec([](LoopPlan& p) { p.final_tool = true; });
  LoopState st;
  Start(spec, st);
  const SendCall& again = AsSend(OnReply(spec, st,
                                         Tools({{"a", "submit", R"({"name":"Mike","priority":7})"},
                                                {"b", "lookup", R"({"q":"x"})"},
                                                {"c", "submit", R"({"name":"Mike"})"}})));
  const auto& turns = again.call.turns;
  ASSERT_EQ(turns.size(), 5u);
  EXPECT_EQ(turns[1].tool_calls.size(), 3u) << "the whole reply is the assistant turn";
  EXPECT_EQ(turns[2].tool_call_id, "a");
  EXPECT_TRUE(turns[2].is_error);
  EXPECT_NE(turns[2].text.find("/priority: value must be <= 5 (was 7)"), std::string::npos);
  EXPECT_EQ(turns[3].tool_call_id, "b");
  EXPECT_FALSE(turns[3].is_error);
  EXPECT_EQ(turns[3].text, "not run");
  EXPECT_EQ(turns[4].tool_call_id, "c");
  EXPECT_TRUE(turns[4].is_error);
  EXPECT_NE(turns[4].text.find("priority"), std::string::npos) << turns[4].text;
}

TEST(ContentLoopTest, SemanticCheckReasonUsesTheChecksWords) {
  LoopSpec spec = Spec();
  spec.semantic_check = [](const Json&) -> std::vector<std::string> {
    return {"/name: Bob is not in the text"};
  };
  LoopState st;
  Start(spec, st);
  const SendCall& again = AsSend(OnReply(spec, st, Text(R"({"name":"Bob","priority":2})")));
  EXPECT_EQ(again.call.turns.back().text,
            "The previous output is valid against the schema but the check rejected it:\n"
            "- /name: Bob is not in the text\n\n"
            "Please correct these and try again. Do not change fields that were valid.");
  EXPECT_EQ(again.call.turns.back().text.find("did not conform"), std::string::npos);
}

TEST(ContentLoopTest, ExternalCheckIsAskedForAndItsLinesFeedTheReasonLoop) {
  LoopSpec spec = Spec();
  spec.external_check = true;
  LoopState st;
  Start(spec, st);
  Step s = OnReply(spec, st, Text(R"({"name":"Bob","priority":2})"));
  ASSERT_TRUE(std::holds_alternative<RunCheck>(s));
  EXPECT_EQ(ToJson(std::get<RunCheck>(s).data), R"({"name":"Bob","priority":2})");
  const SendCall& again = AsSend(OnCheck(spec, st, std::vector<std::string>{"/name: not Bob"}));
  EXPECT_NE(again.call.turns.back().text.find("- /name: not Bob"), std::string::npos);
  ASSERT_TRUE(
      std::holds_alternative<RunCheck>(OnReply(spec, st, Text(R"({"name":"Mike","priority":2})"))));
  const Finish& f = AsFinish(OnCheck(spec, st, std::vector<std::string>{}));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(ToJson(f.result.data), R"({"name":"Mike","priority":2})");
  EXPECT_EQ(f.result.iterations, 2);
}

TEST(ContentLoopTest, ExternalCheckFailureEndsTheCallWithCheckFailed) {
  LoopSpec spec = Spec();
  spec.external_check = true;
  LoopState st;
  Start(spec, st);
  ASSERT_TRUE(
      std::holds_alternative<RunCheck>(OnReply(spec, st, Text(R"({"name":"Mike","priority":2})"))));
  Result<std::vector<std::string>> failed =
      Status(Code::kInternal, "check command exited with status 3");
  const Finish& f = AsFinish(OnCheck(spec, st, failed));
  EXPECT_EQ(f.result.status, Outcome::kError);
  EXPECT_EQ(f.result.error_code, ErrorCode::kCheckFailed);
  EXPECT_EQ(f.result.errors.at(0), "check command exited with status 3");
}

TEST(ContentLoopTest, ExternalCheckJudgesFinalCallsInOrder) {
  LoopSpec spec = FinalSpec();
  spec.external_check = true;
  LoopState st;
  Start(spec, st);
  Step s = OnReply(spec, st,
                   Tools({{"a", "submit", R"({"name":"Bob","priority":2})"},
                          {"b", "submit", R"({"name":"Mike","priority":2})"}}));
  ASSERT_TRUE(std::holds_alternative<RunCheck>(s));
  Step next = OnCheck(spec, st, std::vector<std::string>{"/name: not Bob"});
  ASSERT_TRUE(std::holds_alternative<RunCheck>(next));
  EXPECT_EQ(ToJson(std::get<RunCheck>(next).data), R"({"name":"Mike","priority":2})");
  const Finish& f = AsFinish(OnCheck(spec, st, std::vector<std::string>{}));
  EXPECT_EQ(ToJson(f.result.data), R"({"name":"Mike","priority":2})");
}

TEST(ContentLoopTest, SemanticCheckRejectionFeedsTheReasonLoop) {
  LoopSpec spec = Spec();
  spec.semantic_check = [](const Json& d) -> std::vector<std::string> {
    if (d.find("name")->as_string() != "Mike")
      return {"/name: must be the person named in the text"};
    return {};
  };
  LoopState st;
  Start(spec, st);
  const SendCall& again = AsSend(OnReply(spec, st, Text(R"({"name":"Bob","priority":2})")));
  EXPECT_NE(again.call.turns.back().text.find("- /name: must be the person named in the text"),
            std::string::npos);
  EXPECT_EQ(AsFinish(OnReply(spec, st, Text(R"({"name":"Mike","priority":2})"))).result.status,
            Outcome::kOk);
}

TEST(ContentLoopTest, SendsTheThinkingSettingsAndTheSpecsCap) {
  LoopSpec spec = Spec();
  spec.thinking.effort = "high";
  spec.max_tokens = 18432;
  LoopState st;
  const SendCall& first = AsSend(Start(spec, st));
  EXPECT_EQ(first.call.thinking.effort, "high");
  EXPECT_EQ(first.call.max_tokens, 18432);
}

TEST(ContentLoopTest, SumsReasoningTokensOverEveryCall) {
  LoopSpec spec = Spec();
  LoopState st;
  Start(spec, st);
  ProviderReply bad = Text(R"({"name":"Mike","priority":7})", 10, 300);
  bad.usage.reasoning_tokens = 250;
  AsSend(OnReply(spec, st, bad));
  ProviderReply good = Text(R"({"name":"Mike","priority":5})", 10, 100);
  good.usage.reasoning_tokens = 60;
  const Finish& f = AsFinish(OnReply(spec, st, good));
  EXPECT_EQ(f.result.usage.reasoning_tokens, 310);
  EXPECT_EQ(f.result.usage.output_tokens, 400);
  EXPECT_EQ(*ResultToJson(f.result).find("usage")->find("reasoningTokens"), Json(int64_t{310}));
}

TEST(ContentLoopTest, ThinkingThatUsesTheWholeCapEndsWithOutputCapExhausted) {
  LoopSpec spec = Spec();
  spec.max_tokens = 512;
  spec.cap_setting = "providers.openai.models.\"o3\".max_output_tokens (now 512)";
  LoopState st;
  Start(spec, st);
  ProviderReply r = Text("", 10, 512);
  r.finish = FinishKind::kLength;
  r.usage.reasoning_tokens = 512;
  const Finish& f = AsFinish(OnReply(spec, st, r));
  EXPECT_EQ(f.result.status, Outcome::kError);
  EXPECT_EQ(f.result.error_code, ErrorCode::kOutputCapExhausted);
  ASSERT_EQ(f.result.errors.size(), 1u);
  EXPECT_EQ(f.result.errors[0],
            "the model spent the whole output cap of 512 tokens thinking (512 reasoning tokens) "
            "and wrote no answer; raise providers.openai.models.\"o3\".max_output_tokens (now "
            "512) or lower the model's reasoning_effort or thinking_budget");
  EXPECT_EQ(f.result.iterations, 1);
}

TEST(ContentLoopTest, AnEmptyCutOffReplyFarBelowTheCapIsReaskedEvenWhenTheModelThought) {
  LoopSpec spec = Spec();
  spec.max_tokens = 10240;
  LoopState st;
  Start(spec, st);
  ProviderReply r = Text("", 10, 1024);
  r.finish = FinishKind::kLength;
  r.usage.reasoning_tokens = 1024;
  const SendCall& again = AsSend(OnReply(spec, st, r));
  EXPECT_NE(again.call.turns.back().text.find("cut off at the token limit"), std::string::npos);
}

TEST(ContentLoopTest, ACutOffAnswerWithTextIsStillReasked) {
  LoopSpec spec = Spec();
  LoopState st;
  Start(spec, st);
  ProviderReply r = Text(R"({"name":"Mi)", 10, 512);
  r.finish = FinishKind::kLength;
  r.usage.reasoning_tokens = 400;
  const SendCall& again = AsSend(OnReply(spec, st, r));
  EXPECT_NE(again.call.turns.back().text.find("cut off at the token limit"), std::string::npos);
}

TEST(ContentLoopTest, ReaskReplaysTheThinkingAndSignaturesOfTheAnswer) {
  LoopSpec spec = Spec([](LoopPlan& p) { p.final_tool = true; });
  LoopState st;
  Start(spec, st);
  ProviderReply r = Tool("submit", R"({"name":"Mike","priority":7})");
  r.tool_calls[0].signature = "call-sig";
  r.thoughts.push_back({"thinking text", "think-sig", false});
  r.text_signature = "text-sig";
  const SendCall& again = AsSend(OnReply(spec, st, r));
  const providers::Turn& assistant = again.call.turns.at(1);
  ASSERT_EQ(assistant.thoughts.size(), 1u);
  EXPECT_EQ(assistant.thoughts[0].signature, "think-sig");
  EXPECT_EQ(assistant.thoughts[0].text, "thinking text");
  EXPECT_EQ(assistant.text_signature, "text-sig");
  EXPECT_EQ(assistant.tool_calls.at(0).signature, "call-sig");
}

}  // namespace
}  // namespace structure::pipeline
