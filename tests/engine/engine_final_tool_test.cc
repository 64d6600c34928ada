// Final-tool mode end to end: the answer is the submit tool's arguments; prose gets nudges, a
// rejected call goes back as a tool error, the first valid call of a reply ends the run.
#include <gtest/gtest.h>

#include "tests/engine/engine_test_fixture.h"

namespace structure {
namespace {

using testing::EngineTest;

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

}  // namespace
}  // namespace structure
