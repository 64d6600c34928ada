#include "pipeline/call_stats.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace structure::pipeline {
namespace {

bool IsFixedLabel(const std::string& label) {
  return label == "inline" || label == "inferred" || label == "unknown" || label == "other" ||
         label == "tenant" || label == "project";
}

uint64_t Tokens(int64_t n) { return static_cast<uint64_t>(std::max<int64_t>(0, n)); }

std::string BoundName(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  return buf;
}

}  // namespace

Histogram::Histogram(std::vector<double> b) : bounds(std::move(b)), counts(bounds.size() + 1, 0) {}

void Histogram::Observe(double v) {
  size_t i = 0;
  while (i < bounds.size() && v > bounds[i]) ++i;
  counts[i]++;
  sum += v;
  count++;
}

const std::vector<double>& LatencyBounds() {
  static const std::vector<double> bounds = {0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60};
  return bounds;
}

ProviderStats::ProviderStats() : seconds(LatencyBounds()) {}

std::string SchemaLabel(SchemaMode mode, const std::string& schema_ref,
                        const StructureResult& result, bool hide_tenant_schemas) {
  switch (mode) {
    case SchemaMode::kJson:
      return "inline";
    case SchemaMode::kText:
      return "inferred";
    case SchemaMode::kNamed:
      // The request's name is the caller's text until the registry has found it.
      if (result.schema_origin.empty()) return "unknown";
      if (hide_tenant_schemas) {
        for (const char* owner : {"tenant", "project"}) {
          if (result.schema_origin.rfind(std::string("registry:") + owner, 0) == 0) return owner;
        }
      }
      return IsFixedLabel(schema_ref) ? "other" : schema_ref;
  }
  return "inline";
}

CallStats::CallStats(size_t max_schemas, size_t max_providers)
    : max_schemas_(max_schemas), max_providers_(max_providers) {}

void CallStats::Record(const std::string& schema, const CallResult& result, double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  auto it = stats_.schemas.find(schema);
  if (it == stats_.schemas.end()) {
    size_t named = 0;
    for (const auto& [label, s] : stats_.schemas) named += IsFixedLabel(label) ? 0 : 1;
    std::string label = IsFixedLabel(schema) || named < max_schemas_ ? schema : "other";
    it = stats_.schemas.try_emplace(std::move(label)).first;
  }
  SchemaStats& s = it->second;
  s.calls++;
  s.results[static_cast<size_t>(result.status)]++;
  s.iterations[static_cast<size_t>(std::clamp(result.iterations, 0, kMaxIterationsBucket))]++;
  for (size_t i = 0; i < kReaskReasonCount; ++i) s.reasks[i] += result.reasks[i];
  s.input_tokens += Tokens(result.usage.input_tokens);
  s.output_tokens += Tokens(result.usage.output_tokens);
  s.cached_input_tokens += Tokens(result.usage.cached_input_tokens);
  s.cache_write_tokens += Tokens(result.usage.cache_write_tokens);
  s.reasoning_tokens += Tokens(result.usage.reasoning_tokens);
  if (result.form_ignored) s.form_ignored++;
  if (result.parts > 0) s.split_calls++;
  if (result.mode == "fallback") {
    s.fallback_calls++;
    std::string reason = result.mode_reason.empty() ? "unknown" : result.mode_reason;
    if (!s.fallback_reasons.count(reason) && s.fallback_reasons.size() >= kMaxFallbackReasons)
      reason = "other";
    s.fallback_reasons[reason]++;
  }
  if (result.truncated) s.truncated++;
  if (result.budget_exhausted ||
      (result.status == Outcome::kError && result.error_code == ErrorCode::kTokenBudgetExhausted)) {
    s.budget_exhausted++;
  }

  if (result.provider.empty()) return;
  auto p = stats_.providers.find(result.provider);
  if (p == stats_.providers.end()) {
    std::string name = stats_.providers.size() < max_providers_ ? result.provider : "other";
    p = stats_.providers.try_emplace(std::move(name)).first;
  }
  p->second.calls++;
  p->second.seconds.Observe(seconds);
}

StatsSnapshot CallStats::Snapshot() const {
  std::lock_guard<std::mutex> lock(mu_);
  return stats_;
}

Json StatsToJson(const StatsSnapshot& stats) {
  Json schemas = Json::MakeObject();
  for (const auto& [label, s] : stats.schemas) {
    Json results = Json::MakeObject();
    for (Outcome o : {Outcome::kOk, Outcome::kNeedMoreInput, Outcome::kStale, Outcome::kError}) {
      results.set(std::string(OutcomeName(o)),
                  static_cast<int64_t>(s.results[static_cast<size_t>(o)]));
    }
    Json iterations = Json::MakeObject();
    for (size_t i = 0; i < s.iterations.size(); ++i) {
      if (s.iterations[i] > 0)
        iterations.set(std::to_string(i), static_cast<int64_t>(s.iterations[i]));
    }
    Json reasks = Json::MakeObject();
    for (size_t i = 0; i < kReaskReasonCount; ++i) {
      reasks.set(std::string(ReaskReasonName(static_cast<ReaskReason>(i))),
                 static_cast<int64_t>(s.reasks[i]));
    }
    Json tokens = Json::MakeObject();
    tokens.set("input", static_cast<int64_t>(s.input_tokens));
    tokens.set("output", static_cast<int64_t>(s.output_tokens));
    tokens.set("cachedInput", static_cast<int64_t>(s.cached_input_tokens));
    tokens.set("cacheWrite", static_cast<int64_t>(s.cache_write_tokens));
    tokens.set("reasoning", static_cast<int64_t>(s.reasoning_tokens));
    Json o = Json::MakeObject();
    o.set("calls", static_cast<int64_t>(s.calls));
    o.set("results", std::move(results));
    o.set("iterations", std::move(iterations));
    o.set("reasks", std::move(reasks));
    o.set("tokens", std::move(tokens));
    o.set("formIgnored", static_cast<int64_t>(s.form_ignored));
    o.set("truncated", static_cast<int64_t>(s.truncated));
    o.set("tokenBudgetExhausted", static_cast<int64_t>(s.budget_exhausted));
    o.set("splitCalls", static_cast<int64_t>(s.split_calls));
    o.set("fallbackCalls", static_cast<int64_t>(s.fallback_calls));
    Json reasons = Json::MakeObject();
    for (const auto& [reason, n] : s.fallback_reasons) reasons.set(reason, static_cast<int64_t>(n));
    o.set("fallbackReasons", std::move(reasons));
    schemas.set(label, std::move(o));
  }
  Json providers = Json::MakeObject();
  for (const auto& [name, p] : stats.providers) {
    Json buckets = Json::MakeObject();
    uint64_t cumulative = 0;
    for (size_t i = 0; i < p.seconds.bounds.size(); ++i) {
      cumulative += p.seconds.counts[i];
      buckets.set(BoundName(p.seconds.bounds[i]), static_cast<int64_t>(cumulative));
    }
    buckets.set("+Inf", static_cast<int64_t>(p.seconds.count));
    Json latency = Json::MakeObject();
    latency.set("sum", p.seconds.sum);
    latency.set("buckets", std::move(buckets));
    Json o = Json::MakeObject();
    o.set("calls", static_cast<int64_t>(p.calls));
    o.set("latencySeconds", std::move(latency));
    providers.set(name, std::move(o));
  }
  Json out = Json::MakeObject();
  out.set("schemas", std::move(schemas));
  out.set("providers", std::move(providers));
  return out;
}

}  // namespace structure::pipeline
