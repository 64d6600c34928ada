// `structure batch --provider-batch --stats FILE`: the live path's metrics document
// (stats_file.h) for a provider batch run, plus what only batches have (rounds, batches,
// requests, discount). Provider latency is not measured: a request waits for its whole batch.
#pragma once

#include <string>

#include "base/json.h"
#include "batch/provider_batch.h"

namespace structure::batch {

// {"run":…,"schemas":…,"providers":{NAME:{"calls"}},"providerBatch":{"rounds","batches",
//  "requests","pendingBatches","waitingRecords","discount","notMeasured"}}. Schemas count the
// records this run ended exactly as the live path counts its calls (tokens from the batch
// results: input, output, cachedInput, cacheWrite, reasoning).
Json ProviderBatchStatsDocument(const ProviderBatchReport& report);

}  // namespace structure::batch
