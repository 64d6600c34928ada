#include "apps/server/metrics.h"

#include <gtest/gtest.h>

namespace structure::server {
namespace {

TEST(Metrics, ReasonKeywordFromValidatorMessages) {
  const std::pair<const char*, const char*> cases[] = {
      {"/priority: value must be <= 5 (was 9)", "maximum"},
      {"/priority: value must be >= 1 (was 0)", "minimum"},
      {"(root): missing required property \"name\"", "required"},
      {"(root): property \"x\" is not allowed", "additionalProperties"},
      {"/a: value must be one of [\"x\",\"y\"] (was \"z\")", "enum"},
      {"/a: value must be integer (was \"3\")", "type"},
      {"/a: value must match pattern \"^a$\" (was \"b\")", "pattern"},
      {"/a: string must have at most 3 characters (was 5)", "length"},
      {"/t: value must be a valid date-time (was \"x\")", "format"},
      {"something else entirely", "other"},
  };
  for (const auto& [message, keyword] : cases) EXPECT_EQ(ReasonKeyword(message), keyword) << message;
}

TEST(Metrics, RenderCountsCallsReasonsTokensAndIterations) {
  Metrics m;
  pipeline::StructureResult stale;
  stale.status = pipeline::Outcome::kStale;
  stale.schema_origin = "inline";
  stale.iterations = 3;
  stale.errors = {"/priority: value must be <= 5 (was 9)"};
  stale.usage.input_tokens = 100;
  stale.usage.output_tokens = 20;
  m.RecordCall(stale, "inline", 0.2);
  pipeline::StructureResult limited = pipeline::ErrorResult("provider_rate_limited", "429");
  limited.schema_origin = "registry:bundled";
  m.RecordCall(limited, "contact", 0.01);
  m.RecordResponse("POST", "/v1/structure", 429);
  std::string text = m.Render();
  for (const char* line : {
           "structure_calls_total{status=\"stale\",schema_origin=\"inline\"} 1\n",
           "structure_calls_total{status=\"error\",schema_origin=\"registry:bundled\"} 1\n",
           "structure_call_errors_total{code=\"provider_rate_limited\"} 1\n",
           "structure_stale_reasons_total{schema=\"inline\",keyword=\"maximum\"} 1\n",
           "structure_iterations_bucket{le=\"0\"} 1\n",
           "structure_iterations_bucket{le=\"2\"} 1\n",
           "structure_iterations_bucket{le=\"3\"} 2\n",
           "structure_iterations_count 2\n",
           "structure_call_duration_seconds_bucket{le=\"0.25\"} 2\n",
           "structure_provider_rate_limited_total 1\n",
           "structure_tokens_total{direction=\"input\"} 100\n",
           "structure_tokens_total{direction=\"output\"} 20\n",
           "structure_http_responses_total{method=\"POST\",route=\"/v1/structure\",code=\"429\"} 1\n",
       }) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
  }
}

TEST(Metrics, LabelValuesAreEscaped) {
  Metrics m;
  pipeline::StructureResult r;
  r.status = pipeline::Outcome::kOk;
  r.schema_origin = "a\"b\\c\nd";
  m.RecordCall(r, "inline", 0);
  EXPECT_NE(m.Render().find(R"(schema_origin="a\"b\\c\nd")"), std::string::npos);
}

}  // namespace
}  // namespace structure::server
