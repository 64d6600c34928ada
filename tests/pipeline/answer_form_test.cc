// Answers that ignore the form the provider was given: the
// plan of a real profile (OpenAI strict: the need envelope) driven through the content loop.
#include <gtest/gtest.h>

#include "pipeline/loop/content_loop.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/schema_stage.h"
#include "tests/support/ticket_schema.h"

namespace structure::pipeline {
namespace {

using providers::ProviderReply;

LoopSpec SpecFor(const std::string& schema_text, const std::string& profile = "openai-strict") {
  auto resolved = ResolveSchema(*ParseJson(schema_text), "inline");
  EXPECT_TRUE(resolved.ok()) << resolved.status().message();
  auto plan = MakeLoopPlan(*resolved, *FindProfile(profile), PlanOptions{});
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  LoopSpec spec;
  spec.plan = *plan;
  spec.prompt = "Mike broke the build";
  spec.model = "m";
  return spec;
}

ProviderReply Text(const std::string& content) {
  ProviderReply r;
  r.content = content;
  return r;
}

Step Answer(const LoopSpec& spec, const std::string& content) {
  LoopState st;
  Start(spec, st);
  return OnReply(spec, st, Text(content));
}

TEST(AnswerFormTest, AnswerWithoutTheEnvelopeThatFitsTheSchemaIsAcceptedAndFlagged) {
  LoopSpec spec = SpecFor(testing::kTicketSchemaText);
  Step s = Answer(spec, R"({"name":"Mike","priority":2})");
  ASSERT_TRUE(std::holds_alternative<Finish>(s));
  const StructureResult& r = std::get<Finish>(s).result;
  EXPECT_EQ(r.status, Outcome::kOk);
  EXPECT_EQ(ToJson(r.data), R"({"name":"Mike","priority":2})");
  EXPECT_TRUE(r.form_ignored);
  EXPECT_EQ(*ResultToJson(r).find("formIgnored"), Json(true));
}

TEST(AnswerFormTest, AnswerInTheEnvelopeIsNotFlagged) {
  LoopSpec spec = SpecFor(testing::kTicketSchemaText);
  Step s = Answer(spec, R"({"result":{"name":"Mike","priority":2},"_need":null})");
  const StructureResult& r = std::get<Finish>(s).result;
  EXPECT_EQ(r.status, Outcome::kOk);
  EXPECT_FALSE(r.form_ignored);
  EXPECT_EQ(ResultToJson(r).find("formIgnored"), nullptr);
}

TEST(AnswerFormTest, AnswerWithoutTheEnvelopeThatFailsIsToldTheUsersSchemaErrors) {
  LoopSpec spec = SpecFor(R"({"type":"object","properties":{"title":{"type":"string"}},
                              "required":["title"],"additionalProperties":false})");
  LoopState st;
  Start(spec, st);
  Step s = OnReply(spec, st, Text("{}"));
  ASSERT_TRUE(std::holds_alternative<SendCall>(s));
  const std::string& reason = std::get<SendCall>(s).call.turns.back().text;
  EXPECT_NE(reason.find("- (root): "), std::string::npos) << reason;
  EXPECT_NE(reason.find("title"), std::string::npos) << reason;
  // Never our wrapper, never a doubled prefix.
  EXPECT_EQ(reason.find("\"result\""), std::string::npos) << reason;
  EXPECT_EQ(reason.find("_need"), std::string::npos) << reason;
  EXPECT_EQ(reason.find("(root): (root)"), std::string::npos) << reason;
  ASSERT_FALSE(st.last_errors.empty());
  EXPECT_EQ(st.last_errors[0].find("(root): (root)"), std::string::npos);
}

TEST(AnswerFormTest, StaleErrorsOfAnArrayRootNameNoWrapper) {
  // OpenAI strict wraps a root array in an envelope object; an answer that skips it is judged
  // as it is.
  LoopSpec spec = SpecFor(R"({"type":"array","items":{"type":"string"},"minItems":2})");
  spec.max_loops = 1;
  Step s = Answer(spec, R"(["only one"])");
  ASSERT_TRUE(std::holds_alternative<Finish>(s));
  const StructureResult& r = std::get<Finish>(s).result;
  EXPECT_EQ(r.status, Outcome::kStale);
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0].rfind("(root): ", 0), 0u) << r.errors[0];
  EXPECT_EQ(r.errors[0].find("(root): (root)"), std::string::npos) << r.errors[0];
  EXPECT_EQ(r.errors[0].find("property"), std::string::npos) << r.errors[0];
  EXPECT_TRUE(std::get<Finish>(Answer(spec, R"(["a","b"])")).result.form_ignored);
}

// The envelope is recognised by the form asked for, not by a key name: a bare answer whose own
// schema has a root member "result" is judged as it is (before, its "result" was unwrapped and
// judged against the whole schema).
TEST(AnswerFormTest, ABareAnswerWithItsOwnResultMemberIsNotUnwrapped) {
  LoopSpec spec = SpecFor(R"({"type":"object","properties":{"result":{"type":"string"},
                              "score":{"type":"integer"}},"required":["result","score"],
                              "additionalProperties":false})");
  Step bare = Answer(spec, R"({"result":"passed","score":3})");
  ASSERT_TRUE(std::holds_alternative<Finish>(bare));
  const StructureResult& r = std::get<Finish>(bare).result;
  EXPECT_EQ(r.status, Outcome::kOk) << ::testing::PrintToString(r.errors);
  EXPECT_EQ(ToJson(r.data), R"({"result":"passed","score":3})");
  EXPECT_TRUE(r.form_ignored);
  // The envelope around a schema with a root "result" names its member "_result".
  Step wrapped = Answer(spec, R"({"_result":{"result":"passed","score":3},"_need":null})");
  ASSERT_TRUE(std::holds_alternative<Finish>(wrapped));
  EXPECT_EQ(ToJson(std::get<Finish>(wrapped).result.data), R"({"result":"passed","score":3})");
  EXPECT_FALSE(std::get<Finish>(wrapped).result.form_ignored);
}

// On the strict path an answer should be exactly one JSON text. Prose around it (a ReAct
// "Action Input: {...}") is still read, as docs/engine.md says, and the result says the form was
// not kept (before, it was accepted silently).
TEST(AnswerFormTest, StrictAnswerWrappedInProseIsReadAndFlagged) {
  LoopSpec spec = SpecFor(testing::kTicketSchemaText);
  Step s = Answer(spec,
                  "Thought: I have it.\nAction Input: "
                  R"({"result":{"name":"Mike","priority":2},"_need":null})");
  ASSERT_TRUE(std::holds_alternative<Finish>(s));
  const StructureResult& r = std::get<Finish>(s).result;
  EXPECT_EQ(r.status, Outcome::kOk);
  EXPECT_EQ(ToJson(r.data), R"({"name":"Mike","priority":2})");
  EXPECT_TRUE(r.form_ignored);
}

TEST(AnswerFormTest, BareNeedIsANeedAnswerInEveryForm) {
  for (const char* profile : {"openai-strict", "gemini", "anthropic-strict", "ollama", "json"}) {
    LoopSpec spec = SpecFor(testing::kTicketSchemaText, profile);
    Step s = Answer(spec, R"({"_need":"the priority is not in the text"})");
    ASSERT_TRUE(std::holds_alternative<Finish>(s)) << profile;
    const StructureResult& r = std::get<Finish>(s).result;
    EXPECT_EQ(r.status, Outcome::kNeedMoreInput) << profile;
    EXPECT_EQ(r.need, "the priority is not in the text") << profile;
  }
}

TEST(AnswerFormTest, EnvelopeWithNeitherValueNorNeedSaysSoOnce) {
  LoopSpec spec = SpecFor(testing::kTicketSchemaText);
  spec.max_loops = 1;
  Step s = Answer(spec, R"({"result":null,"_need":null})");
  const StructureResult& r = std::get<Finish>(s).result;
  ASSERT_EQ(r.errors.size(), 1u);
  EXPECT_EQ(r.errors[0], "(root): no answer was given, and no reason why the input is not enough");
}

// A schema whose root has one property "result" (issue 44, item 7): the answer to it, as real
// OpenAI and Gemini replies carry it in their content, is {"result": {...}}. The envelope's
// member is named so that it cannot be taken for the envelope: it is unwrapped only when it is
// what was asked for.
constexpr char kResultSchema[] = R"({"type":"object","properties":{"result":{"type":"object",
    "properties":{"title":{"type":"string"},"pages":{"type":"integer"}},
    "required":["title","pages"],"additionalProperties":false}},
    "required":["result"],"additionalProperties":false})";

TEST(AnswerFormTest, EnvelopeMemberNeverCollidesWithARootProperty) {
  LoopSpec spec = SpecFor(kResultSchema);
  const Json& sent = *spec.plan->provider_schema;
  ASSERT_NE(sent.find("properties"), nullptr) << ToJson(sent);
  EXPECT_NE(sent.find("properties")->find("_result"), nullptr) << ToJson(sent);
  EXPECT_NE(sent.find("properties")->find("_need"), nullptr) << ToJson(sent);
  EXPECT_EQ(sent.find("properties")->find("result"), nullptr) << ToJson(sent);
  // The prompt names the member the answer goes in.
  LoopState st;
  Step first = Start(spec, st);
  ASSERT_TRUE(std::holds_alternative<SendCall>(first));
  const std::string& system = std::get<SendCall>(first).call.system;
  EXPECT_NE(system.find("put the answer in \"_result\""), std::string::npos) << system;
  // Any other schema keeps "result".
  EXPECT_NE(
      SpecFor(testing::kTicketSchemaText).plan->provider_schema->find("properties")->find("result"),
      nullptr);
}

TEST(AnswerFormTest, AnswerWithARootResultIsNotUnwrappedTwice) {
  LoopSpec spec = SpecFor(kResultSchema);
  // The bare answer (the content of the recorded replies): judged as it is, and valid.
  Step bare = Answer(spec, R"({"result":{"title":"Q3 report","pages":12}})");
  ASSERT_TRUE(std::holds_alternative<Finish>(bare));
  const StructureResult& b = std::get<Finish>(bare).result;
  EXPECT_EQ(b.status, Outcome::kOk) << ToJson(ResultToJson(b));
  EXPECT_EQ(ToJson(b.data), R"({"result":{"title":"Q3 report","pages":12}})");
  EXPECT_TRUE(b.form_ignored);
  // The envelope that was asked for: unwrapped once.
  Step wrapped =
      Answer(spec, R"({"_result":{"result":{"title":"Q3 report","pages":12}},"_need":null})");
  ASSERT_TRUE(std::holds_alternative<Finish>(wrapped));
  const StructureResult& w = std::get<Finish>(wrapped).result;
  EXPECT_EQ(w.status, Outcome::kOk) << ToJson(ResultToJson(w));
  EXPECT_EQ(ToJson(w.data), R"({"result":{"title":"Q3 report","pages":12}})");
  EXPECT_FALSE(w.form_ignored);
  // A need in the envelope.
  Step need = Answer(spec, R"({"_result":null,"_need":"the page count is not in the text"})");
  ASSERT_TRUE(std::holds_alternative<Finish>(need));
  EXPECT_EQ(std::get<Finish>(need).result.status, Outcome::kNeedMoreInput);
  EXPECT_EQ(std::get<Finish>(need).result.need, "the page count is not in the text");
}

}  // namespace
}  // namespace structure::pipeline
