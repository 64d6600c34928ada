// Evidence in the content loop: the form asked of every provider, `report` and
// `require` on real plans (MakeLoopPlan with the built-in profiles).
#include <gtest/gtest.h>

#include "pipeline/loop/content_loop.h"
#include "pipeline/lowering/profile.h"
#include "pipeline/schema_stage.h"
#include "tests/support/ticket_schema.h"

namespace structure::pipeline {
namespace {

using config::EvidenceMode;
using providers::FinishKind;
using providers::ProviderReply;

constexpr const char* kPrompt = "Mike broke the build, priority five";

LoopSpec SpecFor(EvidenceMode mode, const std::string& profile = "openai-strict",
                 const std::string& schema = testing::kTicketSchemaText, int max_loops = 3) {
  auto resolved = ResolveSchema(*ParseJson(schema), "inline");
  EXPECT_TRUE(resolved.ok()) << resolved.status().message();
  PlanOptions options;
  options.evidence = mode;
  auto plan = MakeLoopPlan(*resolved, *FindProfile(profile), options);
  EXPECT_TRUE(plan.ok()) << plan.status().message();
  LoopSpec spec;
  spec.plan = *plan;
  spec.prompt = kPrompt;
  spec.model = "m";
  spec.max_loops = max_loops;
  return spec;
}

ProviderReply Text(const std::string& content) {
  ProviderReply r;
  r.content = content;
  r.usage.output_tokens = 40;
  return r;
}

ProviderReply Tool(const std::string& args) {
  ProviderReply r;
  r.finish = FinishKind::kToolUse;
  r.tool_calls.push_back({"call_1", "answer", args, ""});
  r.usage.output_tokens = 40;
  return r;
}

std::string Form(const std::string& answer, const std::string& evidence) {
  return R"({"answer":)" + answer + R"(,"evidence":)" + evidence + "}";
}

const std::string kGood =
    Form(R"({"name":"Mike","priority":5})",
         R"([{"path":"/name","quote":"Mike"},{"path":"/priority","quote":"priority five"}])");
const std::string kInvented =
    Form(R"({"name":"Anna","priority":5})",
         R"([{"path":"/name","quote":"Anna"},{"path":"/priority","quote":"priority five"}])");

// The reply in the form each profile's provider answers in.
ProviderReply InForm(const std::string& profile, const std::string& form) {
  if (profile == "openai-strict") return Text(R"({"result":)" + form + R"(,"_need":null})");
  if (profile == "anthropic-strict") return Tool(form);
  return Text(form);
}

Finish AsFinish(Step s) {
  EXPECT_TRUE(std::holds_alternative<Finish>(s));
  if (!std::holds_alternative<Finish>(s)) return Finish{};
  return std::get<Finish>(std::move(s));
}

SendCall AsSend(Step s) {
  EXPECT_TRUE(std::holds_alternative<SendCall>(s));
  if (!std::holds_alternative<SendCall>(s)) return SendCall{};
  return std::get<SendCall>(std::move(s));
}

TEST(EvidenceLoopTest, ReportOnEveryProviderForm) {
  for (std::string profile : {"openai-strict", "anthropic-strict", "gemini", "json"}) {
    SCOPED_TRACE(profile);
    LoopSpec spec = SpecFor(EvidenceMode::kReport, profile);
    LoopState st;
    SendCall first = AsSend(Start(spec, st));
    // The form asks for the evidence list beside the answer, in the strict schema or, on the
    // fallback path, in the schema shown in the prompt.
    std::string asked = spec.plan->strict ? first.call.schema.text() : first.call.system;
    EXPECT_NE(asked.find("\"evidence\""), std::string::npos);
    EXPECT_NE(asked.find("\"quote\""), std::string::npos);
    EXPECT_NE(first.call.system.find("copied character for character"), std::string::npos);
    EXPECT_EQ(spec.plan->strict, profile != "json");
    Finish f = AsFinish(OnReply(spec, st, InForm(profile, kGood)));
    ASSERT_EQ(f.result.status, Outcome::kOk) << (f.result.errors.empty() ? "" : f.result.errors[0]);
    EXPECT_EQ(ToJson(f.result.data), R"({"name":"Mike","priority":5})");
    ASSERT_TRUE(f.result.evidence.is_object());
    const Json* name = f.result.evidence.find("/name");
    ASSERT_NE(name, nullptr);
    EXPECT_EQ(name->find("byteStart")->as_int(), 0);
    EXPECT_EQ(name->find("cpEnd")->as_int(), 4);
    EXPECT_EQ(name->find("match")->as_string(), "exact");
    EXPECT_NE(f.result.evidence.find("/priority"), nullptr);
    EXPECT_EQ(ToJson(f.result.ungrounded), "[]");
    EXPECT_EQ(f.result.usage.output_tokens, 40);  // the evidence is paid as output tokens
    Json out = ResultToJson(f.result);
    EXPECT_NE(out.find("evidence"), nullptr);
    EXPECT_NE(out.find("ungrounded"), nullptr);
  }
}

TEST(EvidenceLoopTest, ReportKeepsTheStatusAndListsAnInventedValue) {
  LoopSpec spec = SpecFor(EvidenceMode::kReport);
  LoopState st;
  Start(spec, st);
  Finish f = AsFinish(OnReply(spec, st, InForm("openai-strict", kInvented)));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(ToJson(f.result.data), R"({"name":"Anna","priority":5})");
  EXPECT_EQ(ToJson(f.result.ungrounded), R"(["/name"])");
  EXPECT_EQ(f.result.evidence.find("/name"), nullptr);
}

TEST(EvidenceLoopTest, OffAsksForNoEvidenceAndTheResultHasNone) {
  LoopSpec spec = SpecFor(EvidenceMode::kOff);
  LoopState st;
  SendCall first = AsSend(Start(spec, st));
  EXPECT_EQ(first.call.schema.text().find("\"evidence\""), std::string::npos);
  Finish f =
      AsFinish(OnReply(spec, st, Text(R"({"result":{"name":"Mike","priority":5},"_need":null})")));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_TRUE(f.result.evidence.is_null());
  EXPECT_EQ(ResultToJson(f.result).find("evidence"), nullptr);
}

TEST(EvidenceLoopTest, RequireReasksAnInventedValueWithItsReasonLine) {
  LoopSpec spec = SpecFor(EvidenceMode::kRequire);
  LoopState st;
  Start(spec, st);
  SendCall again = AsSend(OnReply(spec, st, InForm("openai-strict", kInvented)));
  const std::string& reason = again.call.turns.back().text;
  EXPECT_NE(reason.find("- /name: \"Anna\" is not supported by the input (quoted \"Anna\", not "
                        "found in the text)"),
            std::string::npos)
      << reason;
  EXPECT_EQ(reason.find("/priority"), std::string::npos);
  Finish f = AsFinish(OnReply(spec, st, InForm("openai-strict", kGood)));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(f.result.iterations, 2);
  EXPECT_EQ(ToJson(f.result.ungrounded), "[]");
}

TEST(EvidenceLoopTest, RequireEndsNeedMoreInputForARequiredLeafStillUngrounded) {
  LoopSpec spec = SpecFor(EvidenceMode::kRequire, "openai-strict", testing::kTicketSchemaText, 2);
  LoopState st;
  Start(spec, st);
  AsSend(OnReply(spec, st, InForm("openai-strict", kInvented)));
  Finish f = AsFinish(OnReply(spec, st, InForm("openai-strict", kInvented)));
  EXPECT_EQ(f.result.status, Outcome::kNeedMoreInput);
  EXPECT_EQ(f.result.need,
            "the input does not state /name (quoted \"Anna\", not found in the text)");
  EXPECT_EQ(ToJson(f.result.ungrounded), R"(["/name"])");
  EXPECT_EQ(f.result.iterations, 2);
}

TEST(EvidenceLoopTest, RequireRemovesAnOptionalLeafAndListsIt) {
  const char* schema = R"({"type":"object","properties":{"name":{"type":"string"},
    "owner":{"type":"string"}},"required":["name"],"additionalProperties":false})";
  LoopSpec spec = SpecFor(EvidenceMode::kRequire, "gemini", schema, 1);
  LoopState st;
  Start(spec, st);
  Finish f = AsFinish(OnReply(
      spec, st,
      Text(Form(R"({"name":"Mike","owner":"Jo"})", R"([{"path":"/name","quote":"Mike"}])"))));
  ASSERT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(ToJson(f.result.data), R"({"name":"Mike"})");
  EXPECT_EQ(ToJson(f.result.ungrounded), R"(["/owner"])");
}

TEST(EvidenceLoopTest, ArraysOfObjectsAndRefsThroughTheForm) {
  const char* schema = R"({"type":"object","$defs":{"item":{"type":"object","properties":{
    "name":{"type":"string"},"qty":{"type":"integer"}},"required":["name","qty"],
    "additionalProperties":false}},"properties":{"items":{"type":"array","items":{"$ref":"#/$defs/item"}}},
    "required":["items"],"additionalProperties":false})";
  for (std::string profile : {"openai-strict", "anthropic-strict", "gemini", "json"}) {
    SCOPED_TRACE(profile);
    LoopSpec spec = SpecFor(EvidenceMode::kReport, profile, schema);
    spec.prompt = "Bestellung: 3 × Äpfel, 12 Stück 寿司";
    LoopState st;
    Start(spec, st);
    std::string form = Form(
        R"({"items":[{"name":"Äpfel","qty":3},{"name":"寿司","qty":12}]})",
        R"([{"path":"/items/0/name","quote":"Äpfel"},{"path":"/items/0/qty","quote":"3 × Äpfel"},
                                {"path":"/items/1/name","quote":"寿司"},{"path":"/items/1/qty","quote":"12 Stück"}])");
    Finish f = AsFinish(OnReply(spec, st, InForm(profile, form)));
    ASSERT_EQ(f.result.status, Outcome::kOk) << (f.result.errors.empty() ? "" : f.result.errors[0]);
    EXPECT_EQ(ToJson(f.result.ungrounded), "[]");
    const Json* sushi = f.result.evidence.find("/items/1/name");
    ASSERT_NE(sushi, nullptr);
    EXPECT_EQ(sushi->find("cpStart")->as_int(), 32);
    EXPECT_EQ(sushi->find("byteStart")->as_int(), 35);  // × and Ä are two bytes each
  }
}

TEST(EvidenceLoopTest, FinalToolModeReasksAnInventedValueAsTheToolsError) {
  auto resolved = ResolveSchema(*ParseJson(testing::kTicketSchemaText), "inline");
  ASSERT_TRUE(resolved.ok());
  PlanOptions options;
  options.evidence = EvidenceMode::kRequire;
  options.final_tool = true;
  auto plan = MakeLoopPlan(*resolved, *FindProfile("anthropic-strict"), options);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  LoopSpec spec;
  spec.plan = *plan;
  spec.prompt = kPrompt;
  spec.model = "m";
  LoopState st;
  SendCall first = AsSend(Start(spec, st));
  EXPECT_NE(first.call.schema.text().find("\"evidence\""), std::string::npos);
  auto submit = [](const std::string& args) {
    ProviderReply r;
    r.finish = FinishKind::kToolUse;
    r.tool_calls.push_back({"call_1", "submit", args, ""});
    return r;
  };
  SendCall again = AsSend(OnReply(spec, st, submit(kInvented)));
  ASSERT_FALSE(again.call.turns.empty());
  EXPECT_TRUE(again.call.turns.back().is_error);
  EXPECT_NE(again.call.turns.back().text.find("- /name: \"Anna\" is not supported by the input"),
            std::string::npos);
  Finish f = AsFinish(OnReply(spec, st, submit(kGood)));
  EXPECT_EQ(f.result.status, Outcome::kOk);
  EXPECT_EQ(ToJson(f.result.ungrounded), "[]");
}

TEST(EvidenceLoopTest, ArrayModeOnTheFallbackPathKeepsTheForm) {
  const char* schema = R"({"type":"array","items":{"type":"object","properties":{
    "name":{"type":"string"}},"required":["name"]}})";
  auto resolved = ResolveSchema(*ParseJson(schema), "inline");
  ASSERT_TRUE(resolved.ok());
  PlanOptions options;
  options.evidence = EvidenceMode::kReport;
  options.array_mode = true;
  auto plan = MakeLoopPlan(*resolved, *FindProfile("json"), options);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  LoopSpec spec;
  spec.plan = *plan;
  spec.prompt = kPrompt;
  spec.model = "m";
  LoopState st;
  Start(spec, st);
  Finish f = AsFinish(OnReply(
      spec, st, Text(Form(R"([{"name":"Mike"}])", R"([{"path":"/0/name","quote":"Mike"}])"))));
  ASSERT_EQ(f.result.status, Outcome::kOk) << (f.result.errors.empty() ? "" : f.result.errors[0]);
  EXPECT_EQ(ToJson(f.result.data), R"([{"name":"Mike"}])");
  EXPECT_NE(f.result.evidence.find("/0/name"), nullptr);
}

// An answer in the form without its evidence list: the answer is taken as it is and only the
// list is asked for; the form's names ("answer") never appear in what the user reads.
TEST(EvidenceLoopTest, RequireAsksOnlyForTheListOfAnAnswerThatCameWithout) {
  for (std::string profile : {"openai-strict", "anthropic-strict", "gemini", "json"}) {
    SCOPED_TRACE(profile);
    LoopSpec spec = SpecFor(EvidenceMode::kRequire, profile);
    LoopState st;
    Start(spec, st);
    SendCall again =
        AsSend(OnReply(spec, st, InForm(profile, R"({"answer":{"name":"Mike","priority":5}})")));
    const std::string& reason = again.call.turns.back().text;
    EXPECT_NE(reason.find("without its \"evidence\" list"), std::string::npos) << reason;
    EXPECT_NE(reason.find("Send the same answer again, unchanged"), std::string::npos) << reason;
    EXPECT_EQ(reason.find("is not allowed"), std::string::npos) << reason;
    EXPECT_EQ(reason.find("not supported by the input"), std::string::npos) << reason;
    Finish f = AsFinish(OnReply(spec, st, InForm(profile, kGood)));
    ASSERT_EQ(f.result.status, Outcome::kOk) << (f.result.errors.empty() ? "" : f.result.errors[0]);
    EXPECT_EQ(ToJson(f.result.data), R"({"name":"Mike","priority":5})");
    EXPECT_EQ(ToJson(f.result.ungrounded), "[]");
    EXPECT_EQ(f.result.iterations, 2);
  }
}

TEST(EvidenceLoopTest, AnAnswerThatNeverBringsItsListNeverShowsTheFormsNames) {
  LoopSpec spec = SpecFor(EvidenceMode::kRequire, "json", testing::kTicketSchemaText, 2);
  LoopState st;
  Start(spec, st);
  const std::string bare = R"({"answer":{"name":"Mike","priority":5}})";
  AsSend(OnReply(spec, st, Text(bare)));
  Finish f = AsFinish(OnReply(spec, st, Text(bare)));
  // The last round judges the values without quotes: the required ones are not grounded.
  EXPECT_EQ(f.result.status, Outcome::kNeedMoreInput);
  EXPECT_EQ(f.result.need.find("answer"), std::string::npos) << f.result.need;
  EXPECT_NE(f.result.need.find("/name (no quote was given)"), std::string::npos) << f.result.need;
  for (const std::string& e : f.result.errors) EXPECT_EQ(e.find("\"answer\""), std::string::npos);

  // Report mode takes the answer at once and lists its values as ungrounded.
  LoopSpec report = SpecFor(EvidenceMode::kReport, "json");
  LoopState rs;
  Start(report, rs);
  f = AsFinish(OnReply(report, rs, Text(bare)));
  ASSERT_EQ(f.result.status, Outcome::kOk) << (f.result.errors.empty() ? "" : f.result.errors[0]);
  EXPECT_EQ(ToJson(f.result.data), R"({"name":"Mike","priority":5})");
  EXPECT_EQ(ToJson(f.result.ungrounded), R"(["/name","/priority"])");
  EXPECT_EQ(f.result.iterations, 1);
}

TEST(EvidenceLoopTest, AUserSchemaWithAnAnswerPropertyIsNotTakenForTheForm) {
  const char* schema = R"({"type":"object","properties":{"answer":{"type":"string"}},
    "required":["answer"],"additionalProperties":false})";
  LoopSpec spec = SpecFor(EvidenceMode::kReport, "json", schema);
  spec.prompt = "The answer is 42";
  LoopState st;
  Start(spec, st);
  // The form skipped: the object is the user's answer.
  Finish f = AsFinish(OnReply(spec, st, Text(R"({"answer":"42"})")));
  ASSERT_EQ(f.result.status, Outcome::kOk) << (f.result.errors.empty() ? "" : f.result.errors[0]);
  EXPECT_EQ(ToJson(f.result.data), R"({"answer":"42"})");
  // The form kept: its answer is the user's answer.
  LoopState st2;
  Start(spec, st2);
  f = AsFinish(
      OnReply(spec, st2, Text(Form(R"({"answer":"42"})", R"([{"path":"/answer","quote":"42"}])"))));
  ASSERT_EQ(f.result.status, Outcome::kOk) << (f.result.errors.empty() ? "" : f.result.errors[0]);
  EXPECT_EQ(ToJson(f.result.data), R"({"answer":"42"})");
  EXPECT_EQ(ToJson(f.result.ungrounded), "[]");
}

}  // namespace
}  // namespace structure::pipeline
