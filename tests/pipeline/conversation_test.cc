// A request that is a conversation (an OpenAI-compatible request's messages): its turns, the
// caller's instructions and call parameters reach every provider call of the loop.
#include <gtest/gtest.h>

#include "pipeline/loop/content_loop.h"
#include "pipeline/schema_stage.h"
#include "tests/support/ticket_schema.h"

namespace structure::pipeline {
namespace {

using providers::Role;

LoopSpec ConversationSpec(StructureRequest& request) {
  auto plan = std::make_shared<LoopPlan>();
  plan->original_schema = *ParseJson(testing::kTicketSchemaText);
  plan->provider_schema = plan->original_schema;
  plan->validator = *CompileSchema(plan->original_schema);
  plan->manual = "Priorities run 1..5.";
  LoopSpec spec = MakeLoopSpec(plan, request.prompt, config::Settings{}, "m");
  spec.max_tokens = 300;
  TakeConversation(request, spec);
  return spec;
}

StructureRequest Conversation() {
  StructureRequest r;
  r.turns = {{TurnRole::kUser, "Who broke the build?"},
             {TurnRole::kAssistant, "Which one?"},
             {TurnRole::kUser, "Mike, priority two"}};
  r.prompt = "Who broke the build?\n\nMike, priority two";
  r.instructions = "Answer for the on-call team.";
  return r;
}

TEST(ConversationTest, FirstCallSendsTheTurnsInOrderWithTheirRoles) {
  StructureRequest r = Conversation();
  LoopSpec spec = ConversationSpec(r);
  LoopState st;
  auto send = std::get<SendCall>(Start(spec, st));
  ASSERT_EQ(send.call.turns.size(), 3u);
  EXPECT_EQ(send.call.turns[0].role, Role::kUser);
  EXPECT_EQ(send.call.turns[1].role, Role::kAssistant);
  EXPECT_EQ(send.call.turns[1].text, "Which one?");
  EXPECT_EQ(send.call.turns[2].text, "Mike, priority two");
}

TEST(ConversationTest, ReaskAppendsAfterTheConversation) {
  StructureRequest r = Conversation();
  LoopSpec spec = ConversationSpec(r);
  LoopState st;
  Start(spec, st);
  providers::ProviderReply bad;
  bad.content = R"({"name":"Mike","priority":9})";
  auto again = std::get<SendCall>(OnReply(spec, st, bad));
  ASSERT_EQ(again.call.turns.size(), 5u);
  EXPECT_EQ(again.call.turns[3].role, Role::kAssistant);
  EXPECT_EQ(again.call.turns[3].text, bad.content);
  EXPECT_EQ(again.call.turns[4].role, Role::kUser);
}

TEST(ConversationTest, InstructionsFollowTheManualInTheSystemPrompt) {
  StructureRequest r = Conversation();
  LoopSpec spec = ConversationSpec(r);
  LoopState st;
  auto send = std::get<SendCall>(Start(spec, st));
  size_t manual = send.call.system.find("Priorities run 1..5.");
  size_t own = send.call.system.find("Answer for the on-call team.");
  ASSERT_NE(manual, std::string::npos);
  ASSERT_NE(own, std::string::npos);
  EXPECT_LT(manual, own);
}

TEST(ConversationTest, CallParamsGoOnEveryCall) {
  StructureRequest r = Conversation();
  r.params.temperature = 0.2;
  r.params.top_p = 0.9;
  r.params.seed = 42;
  r.params.user = "u-7";
  r.params.max_tokens = 77;
  r.params.reasoning_effort = "low";
  LoopSpec spec = ConversationSpec(r);
  LoopState st;
  auto send = std::get<SendCall>(Start(spec, st));
  EXPECT_EQ(send.call.temperature, 0.2);
  EXPECT_EQ(send.call.top_p, 0.9);
  EXPECT_EQ(send.call.seed, 42);
  EXPECT_EQ(send.call.user, "u-7");
  EXPECT_EQ(send.call.max_tokens, 77);
  EXPECT_EQ(send.call.thinking.effort, "low");
}

TEST(ConversationTest, PlainPromptKeepsOneUserTurnAndTheTargetsCap) {
  StructureRequest r;
  r.prompt = "Mike, priority two";
  LoopSpec spec = ConversationSpec(r);
  LoopState st;
  auto send = std::get<SendCall>(Start(spec, st));
  ASSERT_EQ(send.call.turns.size(), 1u);
  EXPECT_EQ(send.call.turns[0].text, "Mike, priority two");
  EXPECT_EQ(send.call.max_tokens, 300);
  EXPECT_FALSE(send.call.temperature.has_value());
}

}  // namespace
}  // namespace structure::pipeline
