// The content loop's limits: the token budget checked before every call (a call that would go
// over it is not sent), and array answers cut off at the output cap (the complete records kept,
// the rest asked for, the result marked when some are missing).
#include <gtest/gtest.h>

#include "pipeline/loop/array_answer.h"
#include "pipeline/loop/content_loop.h"
#include "tests/pipeline/loop_test_util.h"

namespace structure::pipeline {
namespace {

using providers::FinishKind;
using providers::ProviderReply;
using testing::AsFinish;
using testing::AsSend;
using testing::kSchema;
using testing::Spec;
using testing::Text;

LoopSpec ArraySpec(bool strict) {
  return Spec([strict](LoopPlan& p) {
    p.array_mode = true;
    p.strict = strict;
    p.original_schema = ArrayModeSchema(*ParseJson(kSchema));
    p.validator = *CompileSchema(p.original_schema);
  });
}

// The cost of the first call of `spec`: its prompt estimate and output cap.
int64_t FirstCallCost(const LoopSpec& spec) {
  LoopState st;
  SendCall first = AsSend(Start(spec, st));
  return providers::EstimatePromptTokens(first.call) + first.call.max_tokens;
}

TEST(ContentLoopTest, TokenBudgetIsCheckedBeforeTheFirstCall) {
  LoopSpec spec = Spec();
  spec.token_budget = 20;
  LoopState st;
  const Finish& f = AsFinish(Start(spec, st));
  EXPECT_EQ(f.result.status, Outcome::kError);
  EXPECT_EQ(f.result.error_code, ErrorCode::kTokenBudgetExhausted);
  EXPECT_NE(f.result.errors[0].find("tokenBudget 20: the next call needs about "),
            std::string::npos)
      << f.result.errors[0];
  EXPECT_NE(f.result.errors[0].find("prompt tokens + its output cap of 2048, and 0 are used"),
            std::string::npos)
      << f.result.errors[0];
  EXPECT_EQ(f.result.iterations, 0);
}

TEST(ContentLoopTest, TokenBudgetEndsTheLoopBeforeACallWouldGoOverIt) {
  LoopSpec spec = Spec();
  spec.max_loops = 10;
  spec.max_tokens = 1000;
  spec.token_budget = 2 * FirstCallCost(spec);
  LoopState st;
  AsSend(Start(spec, st));
  int64_t spent = 0;
  Step s = OnReply(spec, st, Text(R"({"name":"Mike","priority":7})", FirstCallCost(spec), 900));
  spent += FirstCallCost(spec) + 900;
  while (std::holds_alternative<SendCall>(s)) {
    s = OnReply(spec, st, Text(R"({"name":"Mike","priority":7})", 100, 900));
    spent += 1000;
  }
  const Finish& f = AsFinish(std::move(s));
  EXPECT_EQ(f.result.status, Outcome::kStale);
  EXPECT_TRUE(f.result.budget_exhausted);
  EXPECT_LE(spent, spec.token_budget);
  EXPECT_NE(f.result.errors.back().find("token budget exhausted: tokenBudget "), std::string::npos)
      << f.result.errors.back();
  EXPECT_EQ(*ResultToJson(f.result).find("tokenBudgetExhausted"), Json(true));
}

// Array mode over records {"n": integer}.
LoopSpec NumbersSpec() {
  return Spec([](LoopPlan& p) {
    p.array_mode = true;
    p.original_schema = *ParseJson(
        R"({"type":"array","items":{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}})");
    p.validator = *CompileSchema(p.original_schema);
  });
}

TEST(ContentLoopTest, ArrayModeKeepsCompleteRecordsOfATruncatedAnswer) {
  LoopSpec spec = NumbersSpec();
  spec.max_loops = 1;  // no call left for a continuation
  LoopState st;
  Start(spec, st);
  ProviderReply r = Text(R"([{"n":1},{"n":2,"s":"a,]"},{"n":)");
  r.finish = FinishKind::kLength;
  const Finish& f = AsFinish(OnReply(spec, st, r));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(ToJson(f.result.data), R"([{"n":1},{"n":2,"s":"a,]"}])");
  // Nothing is silently lost: the result says it was cut off and how many records it kept.
  EXPECT_TRUE(f.result.truncated);
  Json shown = ResultToJson(f.result);
  EXPECT_EQ(*shown.find("truncated"), Json(true));
  EXPECT_EQ(*shown.find("completeRecords"), Json(int64_t{2}));
}

TEST(ContentLoopTest, ArrayModeAsksForTheRecordsAfterTheLastCompleteOne) {
  LoopSpec spec = NumbersSpec();
  spec.max_loops = 3;
  LoopState st;
  Start(spec, st);
  ProviderReply cut = Text(R"([{"n":1},{"n":2},{"n)");
  cut.finish = FinishKind::kLength;
  SendCall more = AsSend(OnReply(spec, st, cut));
  ASSERT_EQ(more.call.turns.size(), 3u);
  EXPECT_EQ(more.call.turns[1].text, cut.content);
  EXPECT_NE(more.call.turns[2].text.find("cut off at the output limit after 2 complete records"),
            std::string::npos)
      << more.call.turns[2].text;
  // Cut off again: the next part is asked for after the four records so far.
  ProviderReply cut2 = Text(R"([{"n":3},{"n":4},{)");
  cut2.finish = FinishKind::kLength;
  SendCall again = AsSend(OnReply(spec, st, cut2));
  EXPECT_NE(again.call.turns[2].text.find("after 4 complete records"), std::string::npos);
  const Finish& f = AsFinish(OnReply(spec, st, Text(R"([{"n":5}])")));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(ToJson(f.result.data), R"([{"n":1},{"n":2},{"n":3},{"n":4},{"n":5}])");
  EXPECT_FALSE(f.result.truncated);
  EXPECT_EQ(f.result.iterations, 3);
  EXPECT_EQ(ResultToJson(f.result).find("truncated"), nullptr);
}

TEST(ContentLoopTest, ArrayModeOutOfCallsKeepsTheRecordsOfEveryPartAndSaysSo) {
  LoopSpec spec = NumbersSpec();
  spec.max_loops = 2;
  LoopState st;
  Start(spec, st);
  ProviderReply cut = Text(R"([{"n":1},{"n)");
  cut.finish = FinishKind::kLength;
  AsSend(OnReply(spec, st, cut));
  ProviderReply cut2 = Text(R"([{"n":2},{"n)");
  cut2.finish = FinishKind::kLength;
  const Finish& f = AsFinish(OnReply(spec, st, cut2));
  EXPECT_EQ(ToJson(f.result.data), R"([{"n":1},{"n":2}])");
  EXPECT_TRUE(f.result.truncated);
  EXPECT_EQ(*ResultToJson(f.result).find("completeRecords"), Json(int64_t{2}));
}

TEST(ContentLoopTest, ReasoningTokensCountAgainstTheTokenBudget) {
  LoopSpec spec = Spec();
  spec.max_loops = 10;
  spec.max_tokens = 700;
  spec.token_budget = FirstCallCost(spec) + 500;
  LoopState st;
  Start(spec, st);
  ProviderReply r = Text(R"({"name":"Mike","priority":7})", 10, 600);
  r.usage.reasoning_tokens = 590;
  const Finish& f = AsFinish(OnReply(spec, st, r));
  EXPECT_EQ(f.result.status, Outcome::kStale);
  EXPECT_NE(f.result.errors.back().find("and 610 are used"), std::string::npos)
      << f.result.errors.back();
}

TEST(ContentLoopTest, ArrayModeReadsJsonLinesAndValidatesEveryRecord) {
  for (bool strict : {true, false}) {
    LoopSpec spec = ArraySpec(strict);
    LoopState st;
    Start(spec, st);
    const SendCall& again = AsSend(OnReply(
        spec, st, Text("{\"name\":\"a\",\"priority\":1}\n{\"name\":\"b\",\"priority\":9}")));
    EXPECT_NE(again.call.turns.back().text.find("- /1/priority: value must be <= 5 (was 9)"),
              std::string::npos)
        << again.call.turns.back().text;
    const Finish& f = AsFinish(OnReply(
        spec, st,
        Text("```jsonl\n{\"name\":\"a\",\"priority\":1}\n{\"name\":\"b\",\"priority\":2}\n```")));
    EXPECT_EQ(f.result.status, Outcome::kOk) << strict;
    EXPECT_EQ(ToJson(f.result.data), R"([{"name":"a","priority":1},{"name":"b","priority":2}])");
  }
}

TEST(ContentLoopTest, ArrayModeKeepsTheCompleteLinesOfACutOffJsonLinesAnswer) {
  LoopSpec spec = ArraySpec(false);
  spec.max_loops = 1;  // no call left for a continuation
  LoopState st;
  Start(spec, st);
  ProviderReply r = Text(
      "{\"name\":\"a\",\"priority\":1}\n{\"name\":\"b\",\"priority\":2}\n{\"name\":\"c\",\"pr");
  r.finish = FinishKind::kLength;
  const Finish& f = AsFinish(OnReply(spec, st, r));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(ToJson(f.result.data), R"([{"name":"a","priority":1},{"name":"b","priority":2}])");
}

TEST(ContentLoopTest, ArrayModeOnTheFallbackPathTakesALoneObjectAsOneRecord) {
  LoopSpec spec = ArraySpec(false);
  LoopState st;
  Start(spec, st);
  const Finish& f = AsFinish(OnReply(spec, st, Text(R"({"name":"a","priority":1})")));
  EXPECT_EQ(ToJson(f.result.data), R"([{"name":"a","priority":1}])");
  LoopState need;
  Start(spec, need);
  EXPECT_EQ(AsFinish(OnReply(spec, need, Text(R"({"_need":"the names"})"))).result.status,
            Outcome::kNeedMoreInput);
}

TEST(RecoverArrayPrefixTest, HandlesScalarsAndNesting) {
  EXPECT_EQ(ToJson(*RecoverArrayPrefix(R"([1, "x", [2,[3]], {"a":{}}, tr)")),
            R"([1,"x",[2,[3]],{"a":{}}])");
  EXPECT_EQ(ToJson(*RecoverArrayPrefix("[]")), "[]");
  EXPECT_FALSE(RecoverArrayPrefix("{}").ok());
}

}  // namespace
}  // namespace structure::pipeline
