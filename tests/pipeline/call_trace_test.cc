// The content loop's trace (pipeline/call_trace.h): off unless asked, and when asked one round
// per provider call with what was sent, the answer, the issues and the reason sent back.
#include "pipeline/call_trace.h"

#include <gtest/gtest.h>

#include "pipeline/loop/content_loop.h"
#include "pipeline/schema_stage.h"
#include "tests/support/ticket_schema.h"

namespace structure::pipeline {
namespace {

using providers::FinishKind;
using providers::ProviderReply;

LoopSpec Spec(bool trace, bool final_tool = false) {
  auto plan = std::make_shared<LoopPlan>();
  plan->original_schema = *ParseJson(testing::kTicketSchemaText);
  plan->provider_schema = plan->original_schema;
  plan->validator = *CompileSchema(plan->original_schema);
  plan->final_tool = final_tool;
  LoopSpec spec;
  spec.plan = plan;
  spec.prompt = "Mike broke the build, priority seven";
  spec.model = "m";
  spec.trace = trace;
  return spec;
}

ProviderReply Text(const std::string& content) {
  ProviderReply r;
  r.content = content;
  r.usage.input_tokens = 10;
  r.usage.output_tokens = 5;
  return r;
}

CallResult Finished(Step s) {
  EXPECT_TRUE(std::holds_alternative<Finish>(s));
  if (!std::holds_alternative<Finish>(s)) return {};
  return std::get<Finish>(std::move(s)).result;
}

TEST(CallTraceTest, NothingIsRecordedWhenTheRequestDidNotAskForIt) {
  LoopSpec spec = Spec(false);
  LoopState st;
  Start(spec, st);
  EXPECT_EQ(st.trace, nullptr);
  OnReply(spec, st, Text(R"({"name":"Mike","priority":7})"));
  CallResult r = Finished(OnReply(spec, st, Text(R"({"name":"Mike","priority":5})")));
  EXPECT_EQ(r.call_trace, nullptr);
  EXPECT_EQ(ResultToJson(r).find("trace"), nullptr);
}

TEST(CallTraceTest, RecordsEachIterationWithTheSchemaAnswerIssuesAndReason) {
  LoopSpec spec = Spec(true);
  LoopState st;
  Start(spec, st);
  Step again = OnReply(spec, st, Text(R"({"name":"Mike","priority":7})"));
  ASSERT_TRUE(std::holds_alternative<SendCall>(again));
  const std::string sent_reason = std::get<SendCall>(again).call.turns.back().text;
  CallResult r = Finished(OnReply(spec, st, Text(R"({"name":"Mike","priority":5})")));
  ASSERT_NE(r.call_trace, nullptr);
  ASSERT_EQ(r.call_trace->rounds.size(), 2u);
  const TraceRound& first = r.call_trace->rounds[0];
  EXPECT_EQ(first.iteration, 1);
  EXPECT_EQ(first.model, "m");
  EXPECT_TRUE(first.strict);
  EXPECT_EQ(ToJson(*first.schema), ToJson(*spec.plan->provider_schema));
  EXPECT_EQ(first.answer, R"({"name":"Mike","priority":7})");
  EXPECT_EQ(first.verdict, "rejected");
  ASSERT_EQ(first.issues.size(), 1u);
  EXPECT_EQ(first.issues[0].pointer, "/priority");
  EXPECT_EQ(first.issues[0].keyword, "maximum");
  EXPECT_EQ(first.issues[0].message, "/priority: value must be <= 5 (was 7)");
  EXPECT_EQ(first.reason, sent_reason);
  EXPECT_EQ(first.usage.input_tokens, 10);
  const TraceRound& second = r.call_trace->rounds[1];
  EXPECT_EQ(second.iteration, 2);
  EXPECT_EQ(second.verdict, "accepted");
  EXPECT_TRUE(second.issues.empty());
  EXPECT_TRUE(second.reason.empty());
}

TEST(CallTraceTest, AStaleCallsLastRoundHasItsIssuesAndNoReason) {
  LoopSpec spec = Spec(true);
  spec.max_loops = 1;
  LoopState st;
  Start(spec, st);
  CallResult r = Finished(OnReply(spec, st, Text(R"({"name":"Mike","priority":7})")));
  EXPECT_EQ(r.status, Outcome::kStale);
  ASSERT_EQ(r.call_trace->rounds.size(), 1u);
  EXPECT_EQ(r.call_trace->rounds[0].verdict, "rejected");
  EXPECT_EQ(r.call_trace->rounds[0].issues.at(0).pointer, "/priority");
  EXPECT_TRUE(r.call_trace->rounds[0].reason.empty());
}

TEST(CallTraceTest, AnUnparsableAnswerIsAParseIssueAtTheRoot) {
  LoopSpec spec = Spec(true);
  LoopState st;
  Start(spec, st);
  OnReply(spec, st, Text("not json at all"));
  CallResult r = Finished(OnReply(spec, st, Text(R"({"name":"Mike","priority":5})")));
  const TraceRound& first = r.call_trace->rounds.at(0);
  EXPECT_EQ(first.verdict, "rejected");
  ASSERT_EQ(first.issues.size(), 1u);
  EXPECT_EQ(first.issues[0].keyword, "parse");
  EXPECT_EQ(first.issues[0].pointer, "");
}

TEST(CallTraceTest, ANeedAndAProviderErrorEndTheirRound) {
  {
    LoopSpec spec = Spec(true);
    LoopState st;
    Start(spec, st);
    CallResult r = Finished(OnReply(spec, st, Text(R"({"_need":"the priority"})")));
    EXPECT_EQ(r.status, Outcome::kNeedMoreInput);
    EXPECT_EQ(r.call_trace->rounds.at(0).verdict, "need");
    EXPECT_EQ(r.call_trace->rounds.at(0).issues.at(0).message, "the priority");
  }
  {
    LoopSpec spec = Spec(true);
    LoopState st;
    Start(spec, st);
    CallResult r = Finished(OnReply(spec, st, Status(Code::kUnavailable, "connection refused")));
    EXPECT_EQ(r.call_trace->rounds.at(0).verdict, "error");
    EXPECT_EQ(r.call_trace->rounds.at(0).error, "connection refused");
  }
}

TEST(CallTraceTest, FinalToolNudgesAreRoundsOfTheirOwnButNotIterations) {
  LoopSpec spec = Spec(true, true);
  LoopState st;
  Start(spec, st);
  OnReply(spec, st, Text("It is Mike, I think."));
  ProviderReply submit;
  submit.finish = FinishKind::kToolUse;
  submit.tool_calls.push_back({"c1", "submit", R"({"name":"Mike","priority":7})", ""});
  OnReply(spec, st, submit);
  submit.tool_calls[0].arguments = R"({"name":"Mike","priority":3})";
  CallResult r = Finished(OnReply(spec, st, submit));
  ASSERT_EQ(r.call_trace->rounds.size(), 3u);
  EXPECT_TRUE(r.call_trace->rounds[0].nudge);
  EXPECT_EQ(r.call_trace->rounds[0].verdict, "nudged");
  EXPECT_FALSE(r.call_trace->rounds[0].reason.empty());
  EXPECT_EQ(r.call_trace->rounds[1].iteration, 1);
  EXPECT_EQ(r.call_trace->rounds[1].verdict, "rejected");
  EXPECT_NE(r.call_trace->rounds[1].reason.find("[submit] "), std::string::npos);
  EXPECT_EQ(r.call_trace->rounds[1].tool_calls.at(0).name, "submit");
  EXPECT_EQ(r.call_trace->rounds[2].verdict, "accepted");
  EXPECT_EQ(r.iterations, 2);
}

TEST(CallTraceTest, TheResultJsonCarriesTheTraceWithProviderAndModel) {
  LoopSpec spec = Spec(true);
  LoopState st;
  Start(spec, st);
  CallResult r = Finished(OnReply(spec, st, Text(R"({"name":"Mike","priority":5})")));
  r.provider = "simulator";
  r.model = "m";
  Json j = ResultToJson(r);
  const Json* trace = j.find("trace");
  ASSERT_NE(trace, nullptr);
  EXPECT_EQ(trace->find("provider")->as_string(), "simulator");
  EXPECT_EQ(trace->find("model")->as_string(), "m");
  const Json& round = trace->find("rounds")->as_array().at(0);
  EXPECT_EQ(round.find("verdict")->as_string(), "accepted");
  EXPECT_EQ(round.find("mode")->as_string(), "strict");
  EXPECT_EQ(round.find("schema")->find("type")->as_string(), "object");
  EXPECT_EQ(round.find("answer")->as_string(), R"({"name":"Mike","priority":5})");
}

}  // namespace
}  // namespace structure::pipeline
