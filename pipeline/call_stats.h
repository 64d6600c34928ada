// The engine's metrics per schema and per provider: pure aggregation over finished calls, fed
// by the engine (engine/engine.cc) and read as a plain snapshot by library users
// (EngineInternal::Stats), `structure serve`'s /metrics and `structure batch --stats`.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "base/json.h"
#include "pipeline/request.h"
#include "pipeline/result.h"

namespace structure::pipeline {

// Fixed-bucket histogram: counts[i] holds the observations <= bounds[i] and > bounds[i-1];
// counts.back() the ones above every bound.
struct Histogram {
  std::vector<double> bounds;
  std::vector<uint64_t> counts;
  double sum = 0;
  uint64_t count = 0;
  explicit Histogram(std::vector<double> b = {});
  void Observe(double v);
};

inline constexpr int kMaxIterationsBucket = 10;  // max_loops is at most 10
inline constexpr size_t kMaxFallbackReasons = 20;

struct SchemaStats {
  uint64_t calls = 0;
  std::array<uint64_t, 4> results{};  // by Outcome: ok, need-more-input, stale, error
  std::array<uint64_t, kMaxIterationsBucket + 1> iterations{};  // calls by content iterations
  std::array<uint64_t, kReaskReasonCount> reasks{};             // re-asks by ReaskReason
  uint64_t input_tokens = 0;
  uint64_t output_tokens = 0;
  uint64_t cached_input_tokens = 0;
  uint64_t cache_write_tokens = 0;
  uint64_t reasoning_tokens = 0;  // part of output_tokens (thinking models)
  uint64_t form_ignored = 0;  // ok answers that skipped the provider's form (result.form_ignored)
  uint64_t split_calls = 0;   // calls whose schema was asked in parts (result.parts > 0)
  // Calls asked in plain JSON mode (result.mode "fallback"), and how many for each reason
  // (result.mode_reason; at most kMaxFallbackReasons distinct, the rest under "other").
  uint64_t fallback_calls = 0;
  std::map<std::string, uint64_t> fallback_reasons;
  uint64_t truncated = 0;  // ok array answers cut off at the output cap (result.truncated)
  // Calls the token budget ended: stale (result.budget_exhausted) or token_budget_exhausted.
  uint64_t budget_exhausted = 0;
};

struct ProviderStats {
  uint64_t calls = 0;
  Histogram seconds;  // wall time of the structure calls whose content stage it served
  ProviderStats();
};

struct StatsSnapshot {
  std::map<std::string, SchemaStats> schemas;      // by schema label (SchemaLabel)
  std::map<std::string, ProviderStats> providers;  // by configured provider name
};

// The latency buckets (seconds) of ProviderStats::seconds.
const std::vector<double>& LatencyBounds();

// The label a call counts under: "inline", "inferred", the registry name (overrides keep their
// name), or "unknown" for a named schema that was not found ("other" for a registry schema
// named like one of these labels). With `hide_tenant_schemas` (a server for several tenants:
// its metrics are read by every one) a tenant's or project's own schema counts under "tenant"
// or "project", never by its name; bundled schemas keep theirs.
std::string SchemaLabel(SchemaMode mode, const std::string& schema_ref,
                        const StructureResult& result, bool hide_tenant_schemas = false);

// Thread-safe. At most `max_schemas` distinct registry names get their own label; the rest
// count under "other" ("inline", "inferred", "unknown" and "other" are always there). The
// same for providers (configured names, so normally never reached).
class CallStats {
 public:
  explicit CallStats(size_t max_schemas = 100, size_t max_providers = 100);

  void Record(const std::string& schema, const CallResult& result, double seconds);
  StatsSnapshot Snapshot() const;

 private:
  const size_t max_schemas_;
  const size_t max_providers_;
  mutable std::mutex mu_;
  StatsSnapshot stats_;
};

// The snapshot as one JSON document (docs/engine.md, "Metrics"):
// {"schemas":{NAME:{"calls","results":{status:n},"iterations":{"1":n,...},"reasks":{reason:n},
//   "formIgnored","splitCalls","fallbackCalls","fallbackReasons":{reason:n},
//   "tokens":{"input","output","cachedInput","cacheWrite","reasoning"}}},
//  "providers":{NAME:{"calls","latencySeconds":{"sum","buckets":{"0.05":cumulative,...,"+Inf"}}}}}
Json StatsToJson(const StatsSnapshot& stats);

}  // namespace structure::pipeline
