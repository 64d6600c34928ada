#include "apps/server/metrics.h"

#include <algorithm>
#include <cstdio>
#include <utility>
#include <vector>

namespace structure::server {
namespace {

// Reason texts are the validator's (pipeline/validator/messages.cc); the first matching
// fragment names the keyword. Texts not listed here count as "other".
constexpr std::pair<const char*, const char*> kReasonFragments[] = {
    {"missing required property", "required"},
    {"is not allowed (unevaluatedProperties)", "unevaluatedProperties"},
    {"is not allowed here (unevaluatedItems)", "unevaluatedItems"},
    {"is not allowed", "additionalProperties"},
    {"value must be one of", "enum"},
    {"value must be equal to", "const"},
    {"value must be >=", "minimum"},
    {"value must be <=", "maximum"},
    {"value must be >", "exclusiveMinimum"},
    {"value must be <", "exclusiveMaximum"},
    {"value must be a multiple of", "multipleOf"},
    {"characters (was", "length"},
    {"value must match pattern", "pattern"},
    {"value must be a valid", "format"},
    {"items (has", "items"},
    {"properties (has", "properties"},
    {"array items must be unique", "uniqueItems"},
    {"value must not match the \"not\"", "not"},
    {"value must be ", "type"},
};

std::string Escape(const std::string& v) {
  std::string out;
  for (char c : v) {
    if (c == '\\') out += "\\\\";
    else if (c == '"') out += "\\\"";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string Num(double v) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%.17g", v);
  return buf;
}

void RenderHistogram(std::string& out, const std::string& name, const std::string& help,
                     const Histogram& h) {
  out += "# HELP " + name + " " + help + "\n# TYPE " + name + " histogram\n";
  uint64_t cumulative = 0;
  for (size_t i = 0; i < h.bounds.size(); ++i) {
    cumulative += h.counts[i];
    out += name + "_bucket{le=\"" + Num(h.bounds[i]) + "\"} " + std::to_string(cumulative) + "\n";
  }
  out += name + "_bucket{le=\"+Inf\"} " + std::to_string(h.count) + "\n";
  out += name + "_sum " + Num(h.sum) + "\n" + name + "_count " + std::to_string(h.count) + "\n";
}

void Header(std::string& out, const std::string& name, const char* type, const std::string& help) {
  out += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

}  // namespace

void Histogram::Observe(double v) {
  size_t i = 0;
  while (i < bounds.size() && v > bounds[i]) ++i;
  counts[i]++;
  sum += v;
  count++;
}

std::string ReasonKeyword(const std::string& message) {
  // Messages look like "/path: text"; match on the text only.
  size_t colon = message.find(": ");
  std::string text = colon == std::string::npos ? message : message.substr(colon + 2);
  for (const auto& [fragment, keyword] : kReasonFragments) {
    if (text.find(fragment) != std::string::npos) return keyword;
  }
  return "other";
}

Metrics::Metrics() {
  iterations_.bounds = {0, 1, 2, 3, 4, 5, 10};
  iterations_.counts.assign(iterations_.bounds.size() + 1, 0);
  call_seconds_.bounds = {0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
  call_seconds_.counts.assign(call_seconds_.bounds.size() + 1, 0);
}

void Metrics::RecordCall(const pipeline::StructureResult& result, const std::string& schema,
                         double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  std::string status(pipeline::OutcomeName(result.status));
  calls_[{status, result.schema_origin.empty() ? "none" : result.schema_origin}]++;
  if (result.status == pipeline::Outcome::kError) {
    error_codes_[result.error_code.empty() ? "unknown" : result.error_code]++;
    if (result.error_code == "provider_rate_limited") provider_rate_limited_++;
  }
  if (result.status == pipeline::Outcome::kStale) {
    for (const std::string& e : result.errors) reasons_[{schema, ReasonKeyword(e)}]++;
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
  Header(out, "structure_calls_total", "counter", "Structure calls by result status and schemaOrigin.");
  for (const auto& [k, n] : calls_) {
    out += "structure_calls_total{status=\"" + Escape(k.first) + "\",schema_origin=\"" +
           Escape(k.second) + "\"} " + std::to_string(n) + "\n";
  }
  Header(out, "structure_call_errors_total", "counter", "Calls with status error, by code.");
  for (const auto& [code, n] : error_codes_) {
    out += "structure_call_errors_total{code=\"" + Escape(code) + "\"} " + std::to_string(n) + "\n";
  }
  Header(out, "structure_stale_reasons_total", "counter",
         "Validator reasons of stale results, by schema and keyword.");
  for (const auto& [k, n] : reasons_) {
    out += "structure_stale_reasons_total{schema=\"" + Escape(k.first) + "\",keyword=\"" +
           Escape(k.second) + "\"} " + std::to_string(n) + "\n";
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
