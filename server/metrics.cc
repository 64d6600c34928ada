#include "server/metrics.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <utility>
#include <vector>

#include "structure/error_code.h"

namespace structure::server {
namespace {

std::string Escape(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\')
      out += "\\\\";
    else if (c == '"')
      out += "\\\"";
    else if (c == '\n')
      out += "\\n";
    else
      out += c;
  }
  return out;
}

// The shortest text that reads back as `v` ("0.05", not "0.050000000000000003").
std::string Num(double v) {
  char buf[64];
  for (int precision = 15; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof(buf), "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

void Header(std::string& out, const std::string& name, const char* type, const std::string& help) {
  out += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

// The series of one histogram; `labels` is "" or `key="value",` (with the trailing comma).
void HistogramSeries(std::string& out, const std::string& name, const std::string& labels,
                     const std::vector<double>& bounds, const std::vector<uint64_t>& counts,
                     double sum, uint64_t count) {
  uint64_t cumulative = 0;
  for (size_t i = 0; i < bounds.size(); ++i) {
    cumulative += counts[i];
    out += name + "_bucket{" + labels + "le=\"" + Num(bounds[i]) + "\"} " +
           std::to_string(cumulative) + "\n";
  }
  out += name + "_bucket{" + labels + "le=\"+Inf\"} " + std::to_string(count) + "\n";
  std::string braces = labels.empty() ? "" : "{" + labels.substr(0, labels.size() - 1) + "}";
  out += name + "_sum" + braces + " " + Num(sum) + "\n" + name + "_count" + braces + " " +
         std::to_string(count) + "\n";
}

void RenderHistogram(std::string& out, const std::string& name, const std::string& help,
                     const pipeline::Histogram& h) {
  Header(out, name, "histogram", help);
  HistogramSeries(out, name, "", h.bounds, h.counts, h.sum, h.count);
}

std::string Label(const char* key, const std::string& value) {
  return std::string(key) + "=\"" + Escape(value) + "\"";
}

std::string Line(const std::string& name, const std::string& labels, uint64_t n) {
  return name + "{" + labels + "} " + std::to_string(n) + "\n";
}

// One counter per schema.
void PerSchema(std::string& out, const pipeline::StatsSnapshot& stats, const char* name,
               const char* help, uint64_t pipeline::SchemaStats::*member) {
  Header(out, name, "counter", help);
  for (const auto& [schema, s] : stats.schemas)
    out += Line(name, Label("schema", schema), s.*member);
}

}  // namespace

std::string RenderEngineStats(const pipeline::StatsSnapshot& stats) {
  std::string out;
  Header(out, "structure_schema_calls_total", "counter",
         "Structure calls by schema (registry name, inline, inferred, unknown, other).");
  for (const auto& [schema, s] : stats.schemas) {
    out += Line("structure_schema_calls_total", Label("schema", schema), s.calls);
  }
  Header(out, "structure_schema_results_total", "counter",
         "Structure calls by schema and result status.");
  for (const auto& [schema, s] : stats.schemas) {
    for (size_t i = 0; i < s.results.size(); ++i) {
      std::string status(pipeline::OutcomeName(static_cast<pipeline::Outcome>(i)));
      out += Line("structure_schema_results_total",
                  Label("schema", schema) + "," + Label("status", status), s.results[i]);
    }
  }
  Header(out, "structure_schema_iterations", "histogram",
         "Content-stage iterations per call, by schema.");
  std::vector<double> bounds;
  for (int i = 0; i <= pipeline::kMaxIterationsBucket; ++i) bounds.push_back(i);
  for (const auto& [schema, s] : stats.schemas) {
    std::vector<uint64_t> counts(s.iterations.begin(), s.iterations.end());
    counts.push_back(0);
    double sum = 0;
    for (size_t i = 0; i < s.iterations.size(); ++i)
      sum += static_cast<double>(i * s.iterations[i]);
    HistogramSeries(out, "structure_schema_iterations", Label("schema", schema) + ",", bounds,
                    counts, sum, s.calls);
  }
  Header(out, "structure_schema_reasks_total", "counter",
         "Re-asks by schema and reason (a re-ask counts once under each reason it gave).");
  for (const auto& [schema, s] : stats.schemas) {
    for (size_t i = 0; i < s.reasks.size(); ++i) {
      std::string reason(pipeline::ReaskReasonName(static_cast<pipeline::ReaskReason>(i)));
      out += Line("structure_schema_reasks_total",
                  Label("schema", schema) + "," + Label("reason", reason), s.reasks[i]);
    }
  }
  Header(out, "structure_schema_tokens_total", "counter",
         "Provider tokens by schema: input (cached included), output, cached_input, cache_write, "
         "reasoning (part of output).");
  for (const auto& [schema, s] : stats.schemas) {
    std::string l = Label("schema", schema) + ",";
    out += Line("structure_schema_tokens_total", l + Label("kind", "input"), s.input_tokens);
    out += Line("structure_schema_tokens_total", l + Label("kind", "output"), s.output_tokens);
    out += Line("structure_schema_tokens_total", l + Label("kind", "cached_input"),
                s.cached_input_tokens);
    out += Line("structure_schema_tokens_total", l + Label("kind", "cache_write"),
                s.cache_write_tokens);
    out +=
        Line("structure_schema_tokens_total", l + Label("kind", "reasoning"), s.reasoning_tokens);
  }
  PerSchema(out, stats, "structure_schema_form_ignored_total",
            "Ok answers that skipped the form the provider was given (no envelope) but fit the "
            "schema.",
            &pipeline::SchemaStats::form_ignored);
  PerSchema(out, stats, "structure_schema_truncated_total",
            "Ok answers of array mode cut off at the output cap: only their complete records "
            "are in the result (truncated: true).",
            &pipeline::SchemaStats::truncated);
  PerSchema(out, stats, "structure_schema_token_budget_exhausted_total",
            "Calls the token budget ended (stale or error token_budget_exhausted).",
            &pipeline::SchemaStats::budget_exhausted);
  PerSchema(out, stats, "structure_schema_split_calls_total",
            "Calls whose schema was past the provider's limits and asked in strict parts.",
            &pipeline::SchemaStats::split_calls);
  PerSchema(out, stats, "structure_schema_fallback_calls_total",
            "Calls asked in plain JSON mode, the schema held here only (mode fallback; the "
            "result's modeReason says why, and structure batch --stats counts them by reason).",
            &pipeline::SchemaStats::fallback_calls);
  Header(out, "structure_provider_call_duration_seconds", "histogram",
         "Wall time of a structure call, by the provider of its content stage.");
  for (const auto& [provider, p] : stats.providers) {
    HistogramSeries(out, "structure_provider_call_duration_seconds",
                    Label("provider", provider) + ",", p.seconds.bounds, p.seconds.counts,
                    p.seconds.sum, p.seconds.count);
  }
  return out;
}

Metrics::Metrics()
    : iterations_({0, 1, 2, 3, 4, 5, 10}), call_seconds_(pipeline::LatencyBounds()) {}

void Metrics::RecordCall(const pipeline::StructureResult& result, double seconds,
                         const std::string& endpoint) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string status(pipeline::OutcomeName(result.status));
  calls_[{endpoint, status, result.schema_origin.empty() ? "none" : result.schema_origin}]++;
  if (result.status == pipeline::Outcome::kError) {
    error_codes_[std::string(ErrorCodeName(result.error_code))]++;
    if (result.error_code == ErrorCode::kProviderRateLimited) provider_rate_limited_++;
  }
  iterations_.Observe(result.iterations);
  call_seconds_.Observe(seconds);
  input_tokens_ += static_cast<uint64_t>(std::max<int64_t>(0, result.usage.input_tokens));
  output_tokens_ += static_cast<uint64_t>(std::max<int64_t>(0, result.usage.output_tokens));
}

void Metrics::RecordResponse(const std::string& method, const std::string& route, int status) {
  std::lock_guard<std::mutex> lock(mu_);
  responses_[{method, route, status}]++;
}

void Metrics::SetInflight(int64_t n) {
  std::lock_guard<std::mutex> lock(mu_);
  inflight_ = n;
}

std::string Metrics::Render() const {
  std::lock_guard<std::mutex> lock(mu_);
  std::string out;
  Header(out, "structure_calls_total", "counter",
         "Structure calls by endpoint, result status and schemaOrigin.");
  for (const auto& [k, n] : calls_) {
    out += "structure_calls_total{" + Label("endpoint", std::get<0>(k)) + "," +
           Label("status", std::get<1>(k)) + "," + Label("schema_origin", std::get<2>(k)) + "} " +
           std::to_string(n) + "\n";
  }
  Header(out, "structure_call_errors_total", "counter", "Calls with status error, by code.");
  for (const auto& [code, n] : error_codes_) {
    out += "structure_call_errors_total{code=\"" + Escape(code) + "\"} " + std::to_string(n) + "\n";
  }
  RenderHistogram(out, "structure_iterations", "Content-stage iterations per call.", iterations_);
  RenderHistogram(out, "structure_call_duration_seconds",
                  "Wall time of a structure call, provider calls included.", call_seconds_);
  Header(out, "structure_provider_rate_limited_total", "counter",
         "Calls that failed because the provider kept answering 429.");
  out += "structure_provider_rate_limited_total " + std::to_string(provider_rate_limited_) + "\n";
  Header(out, "structure_tokens_total", "counter", "Provider tokens used by calls.");
  out += "structure_tokens_total{direction=\"input\"} " + std::to_string(input_tokens_) + "\n";
  out += "structure_tokens_total{direction=\"output\"} " + std::to_string(output_tokens_) + "\n";
  Header(out, "structure_http_responses_total", "counter",
         "HTTP responses by method, route and status (429 = server busy).");
  for (const auto& [k, n] : responses_) {
    out += "structure_http_responses_total{method=\"" + Escape(std::get<0>(k)) + "\",route=\"" +
           Escape(std::get<1>(k)) + "\",code=\"" + std::to_string(std::get<2>(k)) + "\"} " +
           std::to_string(n) + "\n";
  }
  Header(out, "structure_inflight_calls", "gauge", "Structure calls under way.");
  out += "structure_inflight_calls " + std::to_string(inflight_) + "\n";
  return out;
}

}  // namespace structure::server
