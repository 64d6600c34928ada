// Untrusted input never crashes or hangs the validator: long strings against ambiguous
// patterns, ReDoS patterns, very deep nesting, $ref cycles, huge enums and arrays.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include <simdjson.h>

#include "pipeline/validator/validator.h"

namespace structure::pipeline {
namespace {

std::shared_ptr<const Validator> MustCompile(std::string_view schema_text,
                                             ValidatorOptions options = {}) {
  Result<Json> schema = ParseJson(schema_text);
  EXPECT_TRUE(schema.ok()) << schema.status().ToString();
  auto validator = CompileSchema(*schema, options);
  EXPECT_TRUE(validator.ok()) << validator.status().ToString();
  return validator.ok() ? *validator : nullptr;
}

std::string Quote(const std::string& s) { return "\"" + s + "\""; }

TEST(ValidatorSafety, MatchesMegabyteStringAgainstAmbiguousPatternInLinearTime) {
  auto v = MustCompile(R"({"type":"string","pattern":"^(a|b)*$"})");
  std::string good(1 << 20, 'a');
  for (size_t i = 0; i < good.size(); i += 3) good[i] = 'b';
  auto valid = v->ValidateText(Quote(good));
  ASSERT_TRUE(valid.ok());
  EXPECT_TRUE(valid->valid);
  std::string bad = good + "c";
  auto invalid = v->ValidateText(Quote(bad));
  ASSERT_TRUE(invalid.ok());
  ASSERT_FALSE(invalid->valid);
  EXPECT_EQ(invalid->errors[0].keyword, "pattern");
  EXPECT_LE(invalid->errors[0].actual.size(), 90u);  // truncated, not a megabyte
}

TEST(ValidatorSafety, RejectsReDosInputWithoutBacktracking) {
  auto v = MustCompile(R"({"pattern":"^(a+)+$"})");
  auto result = v->ValidateText(Quote(std::string(10000, 'a') + "!"));
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->valid);
  auto ok = v->ValidateText(Quote(std::string(10000, 'a')));
  ASSERT_TRUE(ok.ok());
  EXPECT_TRUE(ok->valid);
}

TEST(ValidatorSafety, BoundsLookAroundPatternWithStepLimit) {
  ValidatorOptions options;
  options.max_regex_steps = 100000;
  auto v = MustCompile(R"({"pattern":"^(?=(a+)+$)a*b"})", options);
  ASSERT_NE(v, nullptr);
  auto result = v->ValidateText(Quote(std::string(5000, 'a') + "!"));
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->valid);
}

TEST(ValidatorSafety, RejectsHundredThousandDeepArrayTextWithClearError) {
  auto v = MustCompile(R"({"items":{"$ref":"#"}})");
  std::string text = std::string(100000, '[') + std::string(100000, ']');
  auto result = v->ValidateText(text);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), Code::kInvalidArgument);
  EXPECT_NE(result.status().message().find("nesting"), std::string::npos)
      << result.status().message();
}

TEST(ValidatorSafety, StopsDeepParsedInstanceAtMaxDepth) {
  auto v = MustCompile(R"({"type":"array","items":{"$ref":"#"}})");
  const size_t depth = 100000;
  std::string text = std::string(depth, '[') + std::string(depth, ']');
  simdjson::dom::parser parser;
  ASSERT_EQ(parser.allocate(text.size(), depth + 10), simdjson::SUCCESS);
  simdjson::dom::element doc;
  ASSERT_EQ(parser.parse(text).get(doc), simdjson::SUCCESS);
  for (bool all : {true, false}) {
    ValidationResult result = v->Validate(doc, all);
    EXPECT_FALSE(result.valid);
    ASSERT_EQ(result.errors.size(), 1u);
    EXPECT_EQ(result.errors[0].keyword, "maxDepth");
    EXPECT_NE(result.errors[0].message.find("1000 levels"), std::string::npos)
        << result.errors[0].message;
  }
}

TEST(ValidatorSafety, RejectsUnconditionalRefCycleAtCompile) {
  for (
      const char* text :
      {R"({"$ref":"#"})",
       R"({"$defs":{"a":{"$ref":"#/$defs/b"},"b":{"allOf":[{"$ref":"#/$defs/a"}]}},"$ref":"#/$defs/a"})"}) {
    auto v = CompileSchema(*ParseJson(text));
    ASSERT_FALSE(v.ok()) << text;
    EXPECT_NE(v.status().message().find("cycle"), std::string::npos) << v.status().message();
  }
}

TEST(ValidatorSafety, BoundsConditionalRefCycleAtValidation) {
  auto v = MustCompile(R"({"anyOf":[{"$ref":"#"},{"$ref":"#"}]})");
  auto result = v->ValidateText("1");
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->valid);
  ASSERT_EQ(result->errors.size(), 1u);
  EXPECT_EQ(result->errors[0].keyword, "maxDepth");
}

TEST(ValidatorSafety, BoundsExponentialApplicatorTreeWithStepLimit) {
  // Each level doubles the work; 40 levels would take forever without the step bound.
  std::string schema = R"({"$defs":{"l0":{"minimum":5})";
  for (int i = 1; i <= 40; ++i) {
    std::string prev = "#/$defs/l" + std::to_string(i - 1);
    schema += ",\"l" + std::to_string(i) + "\":{\"anyOf\":[{\"$ref\":\"" + prev +
              "\"},{\"$ref\":\"" + prev + "\"}]}";
  }
  schema += R"(},"$ref":"#/$defs/l40"})";
  ValidatorOptions options;
  options.max_eval_steps = 100000;
  auto v = MustCompile(schema, options);
  auto result = v->ValidateText("1");
  ASSERT_TRUE(result.ok());
  EXPECT_FALSE(result->valid);
  EXPECT_EQ(result->errors.back().keyword, "maxSteps");
}

TEST(ValidatorSafety, HandlesTenMegabyteEnum) {
  Json values = Json::MakeArray();
  std::string base(100, 'x');
  for (int i = 0; i < 100000; ++i) values.push_back(base + std::to_string(i));
  Json schema = Json::MakeObject();
  schema.set("enum", std::move(values));
  auto v = CompileSchema(schema);
  ASSERT_TRUE(v.ok());
  auto hit = (*v)->ValidateText(Quote(base + "99999"));
  ASSERT_TRUE(hit.ok());
  EXPECT_TRUE(hit->valid);
  auto miss = (*v)->ValidateText(Quote("nope"));
  ASSERT_TRUE(miss.ok());
  ASSERT_FALSE(miss->valid);
  EXPECT_LT(miss->errors[0].message.size(), 400u);
  EXPECT_EQ(miss->errors[0].params.find("expectedCount")->as_int(), 100000);
}

TEST(ValidatorSafety, HandlesLargeArrayWithUniqueItems) {
  auto v = MustCompile(R"({"type":"array","uniqueItems":true,"items":{"type":"integer"}})");
  std::string text = "[";
  for (int i = 0; i < 200000; ++i) text += std::to_string(i) + ",";
  text += "5]";
  auto result = v->ValidateText(text);
  ASSERT_TRUE(result.ok());
  ASSERT_FALSE(result->valid);
  EXPECT_EQ(result->errors[0].keyword, "uniqueItems");
  EXPECT_EQ(result->errors[0].params.find("i")->as_int(), 5);
  EXPECT_EQ(result->errors[0].params.find("j")->as_int(), 200000);
}

TEST(ValidatorSafety, RejectsBadJsonTextAsInvalidArgument) {
  auto v = MustCompile(R"({"type":"object"})");
  for (const char* text : {"{", "", "[1,]", "{\"a\":1}}", "\"\xff\""}) {
    auto result = v->ValidateText(text);
    ASSERT_FALSE(result.ok()) << text;
    EXPECT_EQ(result.status().code(), Code::kInvalidArgument);
  }
}

TEST(ValidatorSafety, SharesOneValidatorAcrossThreads) {
  auto v = MustCompile(R"({"type":"object","properties":{"n":{"type":"integer","maximum":5}}})");
  std::vector<std::thread> threads;
  std::vector<int> invalid(4, 0);
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 500; ++i) {
        auto r = v->ValidateText("{\"n\":" + std::to_string(i % 10) + "}");
        if (r.ok() && !r->valid) ++invalid[t];
      }
    });
  }
  for (auto& th : threads) th.join();
  for (int count : invalid) EXPECT_EQ(count, 200);
}

}  // namespace
}  // namespace structure::pipeline
