#include "batch/provider_batch_stats.h"

#include "batch/stats_file.h"

namespace structure::batch {

Json ProviderBatchStatsDocument(const ProviderBatchReport& report) {
  Json doc = StatsDocument(report.batch, report.stats);
  // The live path's latency histogram times each call; here every request waits for its batch,
  // so the figure does not exist: the provider keeps its count only.
  Json providers = Json::MakeObject();
  for (const auto& [name, p] : report.stats.providers) {
    Json o = Json::MakeObject();
    o.set("calls", static_cast<int64_t>(p.calls));
    providers.set(name, std::move(o));
  }
  doc.set("providers", std::move(providers));
  Json b = Json::MakeObject();
  b.set("rounds", static_cast<int64_t>(report.rounds));
  b.set("batches", static_cast<int64_t>(report.submitted.size()));
  b.set("requests", report.requests);
  b.set("pendingBatches", report.pending_batches);
  b.set("waitingRecords", static_cast<int64_t>(report.waiting));
  b.set("discount", report.discount);
  b.set("notMeasured",
        "providers.*.latencySeconds: a request in a provider batch waits for its whole batch; "
        "run.elapsedSeconds is the run's wall time");
  doc.set("providerBatch", std::move(b));
  return doc;
}

}  // namespace structure::batch
