#include "pipeline/input/plan.h"

#include <gtest/gtest.h>

#include "base/json.h"
#include "pipeline/loop/content_loop.h"
#include "pipeline/schema_stage.h"

namespace structure::pipeline {
namespace {

Json J(std::string_view text) { return *ParseJson(text); }

std::string Lines(int n) {
  std::string doc;
  for (int i = 0; i < n; ++i) doc += "Line " + std::to_string(i) + ": widget at 12.50\n";
  return doc;
}

TEST(InputPlanTest, FitsWholeWithoutAWindowOrWhenShort) {
  std::string doc = Lines(2000);
  auto plan = PlanInput(doc, {});
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->parts.empty());
  InputBudget b;
  b.window = 1'000'000;
  b.source = WindowSource::kTable;
  plan = PlanInput(doc, b);
  ASSERT_TRUE(plan.ok());
  EXPECT_TRUE(plan->parts.empty());
}

TEST(InputPlanTest, AWindowTooSmallForTheInputSplitsItAndSaysWhy) {
  std::string doc = Lines(2000);  // about 14 000 tokens
  InputBudget b;
  b.window = 8192;
  b.source = WindowSource::kLearned;
  b.fixed_tokens = 600;
  b.output_cap = 2048;
  auto plan = PlanInput(doc, b);
  ASSERT_TRUE(plan.ok()) << plan.status().message();
  ASSERT_GT(plan->parts.size(), 2u);
  EXPECT_EQ(plan->part_tokens, 8192 - 600 - 2048 - 8192 / 20);
  for (const InputPart& p : plan->parts) {
    // Every part with its instructions and output cap fits the window, counted as bytes / 4
    // and as the cautious bytes / 3.
    EXPECT_LE(static_cast<int64_t>(p.end - p.begin) / kPartBytesPerToken, plan->part_tokens);
  }
  EXPECT_NE(plan->reason.find("learned from the provider's refusal"), std::string::npos)
      << plan->reason;
  EXPECT_NE(plan->reason.find("overlapping parts"), std::string::npos) << plan->reason;
}

TEST(InputPlanTest, MaxInputTokensPerCallSplitsOnPurpose) {
  std::string doc = Lines(200);
  InputBudget b;
  b.max_input_tokens_per_call = 300;
  auto plan = PlanInput(doc, b);
  ASSERT_TRUE(plan.ok());
  EXPECT_GT(plan->parts.size(), 3u);
  EXPECT_NE(plan->reason.find("maxInputTokensPerCall is 300"), std::string::npos) << plan->reason;
}

TEST(InputPlanTest, AWindowThatHoldsNoInputIsContextTooLong) {
  InputBudget b;
  b.window = 2000;
  b.fixed_tokens = 1500;
  b.output_cap = 1000;
  auto plan = PlanInput("some text", b);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().code(), Code::kContextTooLong);
  EXPECT_NE(plan.status().message().find("context window of 2000 tokens"), std::string::npos);
}

TEST(InputPlanTest, PartSchemaDropsWhatAPartMayLackButKeepsPropertiesOfThoseNames) {
  Json s = J(R"({"type": "object", "required": ["a", "required"],
    "properties": {"a": {"type": "array", "minItems": 2, "items": {"type": "object",
      "required": ["x"], "properties": {"x": {"type": "string"}}}},
      "required": {"type": "string", "enum": ["required"]},
      "minItems": {"type": "object", "minProperties": 1}},
    "$defs": {"d": {"type": "object", "required": ["y"], "dependentRequired": {"y": ["z"]}}}})");
  EXPECT_EQ(ToJson(PartSchema(s)),
            ToJson(J(R"({"type": "object", "properties": {"a": {"type": "array",
      "items": {"type": "object", "properties": {"x": {"type": "string"}}}},
      "required": {"type": "string", "enum": ["required"]}, "minItems": {"type": "object"}},
      "$defs": {"d": {"type": "object"}}})")));
}

TEST(InputPlanTest, PartPromptSaysWhereThePartSits) {
  std::string p = PartPrompt("the text", 2, 11);
  EXPECT_EQ(p.rfind("[Part 3 of 11 of one document.", 0), 0u) << p;
  EXPECT_EQ(p.substr(PartHeaderBytes(2, 11)), "the text");
}

TEST(InputPlanTest, EvidenceMapsToTheWholeDocument) {
  std::string doc = "héllo\nLine A: 1\nLine B: 2\n";
  InputPart part{8, doc.size(), 0};  // "Line A: 1\n..."; 'é' is 2 bytes before it
  std::string prompt = PartPrompt(part.Text(doc), 1, 2);
  size_t h = PartHeaderBytes(1, 2);
  size_t at = prompt.find("Line B");
  Json ev = Json::MakeObject();
  Json e = Json::MakeObject();
  e.set("quote", "Line B");
  e.set("byteStart", static_cast<int64_t>(at));
  e.set("byteEnd", static_cast<int64_t>(at + 6));
  e.set("cpStart", static_cast<int64_t>(at));
  e.set("cpEnd", static_cast<int64_t>(at + 6));
  ev.set("/b", e);
  Json header = e;
  header.set("byteStart", 1);
  header.set("byteEnd", 5);
  ev.set("/in-header", header);
  Json whole = WholeDocumentEvidence(ev, part, CodePoints(doc.substr(0, 8)), h);
  ASSERT_TRUE(whole.find("/b"));
  EXPECT_EQ(whole.find("/in-header"), nullptr);
  auto bs = static_cast<size_t>(whole.find("/b")->find("byteStart")->as_int());
  auto cs = whole.find("/b")->find("cpStart")->as_int();
  EXPECT_EQ(doc.substr(bs, 6), "Line B");
  EXPECT_EQ(cs, static_cast<int64_t>(bs) - 1);  // one 2-byte code point before it
}

LoopPlan PlanOf(std::string_view schema) {
  LoopPlan plan;
  plan.validator = ResolveSchema(J(schema), "inline")->validator;
  return plan;
}

CallResult Ok(std::string_view data) {
  CallResult r;
  r.status = Outcome::kOk;
  r.data = J(data);
  r.iterations = 1;
  r.usage.input_tokens = 100;
  r.usage.output_tokens = 10;
  return r;
}

TEST(InputPlanTest, CombineMergesSumsAndValidatesAgainstTheOriginal) {
  LoopPlan plan = PlanOf(R"({"type": "object", "required": ["id", "items"],
    "properties": {"id": {"type": "string"}, "cur": {"type": "string"},
                   "items": {"type": "array", "minItems": 3}}})");
  std::string doc = "x";
  std::vector<InputPart> layout = {{0, 1, 0}, {0, 1, 1}};
  std::vector<CallResult> parts = {Ok(R"({"id": "I-1", "cur": "EUR", "items": [1, 2]})"),
                                   Ok(R"({"cur": "USD", "items": [2, 3]})")};
  CallResult r = CombineParts(parts, layout, doc, plan, "why");
  ASSERT_EQ(r.status, Outcome::kOk) << (r.errors.empty() ? "" : r.errors[0]);
  EXPECT_EQ(ToJson(r.data), R"({"id":"I-1","cur":"EUR","items":[1,2,3]})");
  EXPECT_EQ(r.input_parts, 2);
  EXPECT_EQ(r.iterations, 2);
  EXPECT_EQ(r.usage.input_tokens, 200);
  EXPECT_EQ(r.mode_reason, "why");
  EXPECT_EQ(ToJson(r.conflicts),
            R"([{"pointer":"/cur","values":["EUR","USD"],"parts":[[1],[2]]}])");

  // Too few items after the merge: the ORIGINAL schema says so.
  parts = {Ok(R"({"id": "I-1", "items": [1]})"), Ok(R"({"items": [1]})")};
  r = CombineParts(parts, layout, doc, plan, "why");
  EXPECT_EQ(r.status, Outcome::kStale);

  // A required field no part stated, and a part said what is missing: need-more-input.
  CallResult need;
  need.status = Outcome::kNeedMoreInput;
  need.need = "the invoice id";
  parts = {Ok(R"({"items": [1, 2, 3]})"), need};
  r = CombineParts(parts, layout, doc, plan, "why");
  EXPECT_EQ(r.status, Outcome::kNeedMoreInput);
  EXPECT_EQ(r.need, "part 2 of 2: the invoice id");

  // An error in a part ends the call, naming the part.
  parts = {Ok(R"({"items": [1, 2, 3]})"), ErrorResult(ErrorCode::kProviderUnavailable, "down")};
  r = CombineParts(parts, layout, doc, plan, "why");
  EXPECT_EQ(r.status, Outcome::kError);
  EXPECT_EQ(r.error_code, ErrorCode::kProviderUnavailable);
  EXPECT_EQ(r.errors.at(0), "part 2 of 2 (bytes 0..1): down");
}

}  // namespace
}  // namespace structure::pipeline
