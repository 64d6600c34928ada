#include "server/metrics.h"

#include <gtest/gtest.h>

namespace structure::server {
namespace {

TEST(Metrics, RenderCountsCallsTokensAndIterations) {
  Metrics m;
  pipeline::StructureResult stale;
  stale.status = pipeline::Outcome::kStale;
  stale.schema_origin = "inline";
  stale.iterations = 3;
  stale.errors = {"/priority: value must be <= 5 (was 9)"};
  stale.usage.input_tokens = 100;
  stale.usage.output_tokens = 20;
  m.RecordCall(stale, 0.2);
  pipeline::StructureResult limited = pipeline::ErrorResult(ErrorCode::kProviderRateLimited, "429");
  limited.schema_origin = "registry:bundled";
  m.RecordCall(limited, 0.01, "chat_completions");
  m.RecordResponse("POST", "/v1/structure", 429);
  std::string text = m.Render();
  for (const char* line : {
           "structure_calls_total{endpoint=\"structure\",status=\"stale\",schema_origin="
           "\"inline\"} 1\n",
           "structure_calls_total{endpoint=\"chat_completions\",status=\"error\",schema_origin="
           "\"registry:bundled\"} 1\n",
           "structure_call_errors_total{code=\"provider_rate_limited\"} 1\n",
           "structure_iterations_bucket{le=\"0\"} 1\n",
           "structure_iterations_bucket{le=\"2\"} 1\n",
           "structure_iterations_bucket{le=\"3\"} 2\n",
           "structure_iterations_count 2\n",
           "structure_call_duration_seconds_bucket{le=\"0.25\"} 2\n",
           "structure_provider_rate_limited_total 1\n",
           "structure_tokens_total{direction=\"input\"} 100\n",
           "structure_tokens_total{direction=\"output\"} 20\n",
           "structure_http_responses_total{method=\"POST\",route=\"/v1/structure\",code=\"429\"} "
           "1\n",
       }) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
  }
}

TEST(Metrics, LabelValuesAreEscaped) {
  Metrics m;
  pipeline::StructureResult r;
  r.status = pipeline::Outcome::kOk;
  r.schema_origin = "a\"b\\c\nd";
  m.RecordCall(r, 0);
  EXPECT_NE(m.Render().find(R"(schema_origin="a\"b\\c\nd")"), std::string::npos);
}

TEST(Metrics, EngineStatsRenderPerSchemaAndPerProvider) {
  pipeline::CallStats stats;
  pipeline::StructureResult r;
  r.status = pipeline::Outcome::kOk;
  r.schema_origin = "registry:tenant:acme";
  r.iterations = 2;
  r.provider = "sim";
  r.usage.input_tokens = 100;
  r.usage.output_tokens = 7;
  r.usage.cached_input_tokens = 64;
  r.usage.cache_write_tokens = 3;
  r.usage.reasoning_tokens = 2;
  r.reasks[static_cast<size_t>(pipeline::ReaskReason::kRequired)] = 1;
  stats.Record("ticket", r, 0.3);
  stats.Record("we\"ird", r, 0.3);
  std::string text = RenderEngineStats(stats.Snapshot());
  for (const char* line : {
           "# TYPE structure_schema_calls_total counter\n",
           "structure_schema_calls_total{schema=\"ticket\"} 1\n",
           "structure_schema_calls_total{schema=\"we\\\"ird\"} 1\n",
           "structure_schema_results_total{schema=\"ticket\",status=\"ok\"} 1\n",
           "structure_schema_results_total{schema=\"ticket\",status=\"stale\"} 0\n",
           "# TYPE structure_schema_iterations histogram\n",
           "structure_schema_iterations_bucket{schema=\"ticket\",le=\"1\"} 0\n",
           "structure_schema_iterations_bucket{schema=\"ticket\",le=\"2\"} 1\n",
           "structure_schema_iterations_bucket{schema=\"ticket\",le=\"+Inf\"} 1\n",
           "structure_schema_iterations_sum{schema=\"ticket\"} 2\n",
           "structure_schema_iterations_count{schema=\"ticket\"} 1\n",
           "structure_schema_reasks_total{schema=\"ticket\",reason=\"required\"} 1\n",
           "structure_schema_reasks_total{schema=\"ticket\",reason=\"enum/const\"} 0\n",
           "structure_schema_tokens_total{schema=\"ticket\",kind=\"input\"} 100\n",
           "structure_schema_tokens_total{schema=\"ticket\",kind=\"output\"} 7\n",
           "structure_schema_tokens_total{schema=\"ticket\",kind=\"cached_input\"} 64\n",
           "structure_schema_tokens_total{schema=\"ticket\",kind=\"cache_write\"} 3\n",
           "structure_schema_tokens_total{schema=\"ticket\",kind=\"reasoning\"} 2\n",
           "# TYPE structure_provider_call_duration_seconds histogram\n",
           "structure_provider_call_duration_seconds_bucket{provider=\"sim\",le=\"0.05\"} 0\n",
           "structure_provider_call_duration_seconds_bucket{provider=\"sim\",le=\"0.25\"} 0\n",
           "structure_provider_call_duration_seconds_bucket{provider=\"sim\",le=\"0.5\"} 2\n",
           "structure_provider_call_duration_seconds_count{provider=\"sim\"} 2\n",
       }) {
    EXPECT_NE(text.find(line), std::string::npos) << line << "\n" << text;
  }
}

}  // namespace
}  // namespace structure::server
