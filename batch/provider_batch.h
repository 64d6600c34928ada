// `structure batch --provider-batch`: the job's records go through the providers' batch APIs
// (OpenAI Batch, Anthropic Message Batches, Gemini batch mode) in rounds. Round k holds every
// unfinished record's k-th call; each round is split into batches at the provider's caps; the
// answers are validated locally by the same content loop as the live path, re-asks form the
// next round, and results are written to OUT as soon as their batch is read. The job's state
// (OUT.pbatch/) records every batch and its results, so --resume after a kill never submits or
// downloads a batch twice (docs/batch.md).
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "batch/batch_line.h"
#include "batch/batch_runner.h"
#include "batch/http_client.h"
#include "batch/journal.h"
#include "batch/shard.h"
#include "config/engine_config.h"
#include "pipeline/call_stats.h"
#include "pipeline/prepared_call.h"

namespace structure::batch {

struct ProviderBatchOptions {
  bool ordered = false;  // write results in input order
  bool no_wait = false;  // submit what can be submitted, read what has ended, then return
  LineDefaults defaults;
  Shard shard;               // --shard I/N: only the records of shard I
  std::string fingerprint;   // what shapes the requests besides the input (flags, config)
  int retries = 3;           // resends of a call whose batch result was a transient error
  int64_t max_requests = 0;  // per batch; 0 = config, else the provider's limit
  int64_t max_bytes = 0;     // per batch; 0 = config, else the provider's limit
  int64_t poll_ms = 0;       // first poll wait; 0 = config
  int64_t max_poll_ms = 0;   // 0 = config
  const std::atomic<int>* interrupts = nullptr;  // > 0: stop at the next safe point
  bool progress = false;                         // redraw a progress line on stderr
  std::string state_dir;                         // OUT.pbatch
};

struct ProviderBatchEnv {
  // Engine::Prepare: exactly one of the callbacks runs, on any thread.
  std::function<void(pipeline::StructureRequest, std::function<void(pipeline::PreparedCall)>,
                     std::function<void(pipeline::StructureResult)>)>
      prepare;
  // [providers.<name>.batch] of a provider.
  std::function<config::BatchSettings(const std::string& provider)> settings;
  SendFn send;  // HTTP to the providers (a curl transport; tests may fake it)
};

struct ProviderBatchReport {
  BatchReport batch;                   // counts, resumed, interrupted, elapsed, io_error
  Status job_error;                    // why the job stopped early (resume continues it)
  int rounds = 0;                      // the highest round submitted so far
  std::vector<std::string> submitted;  // batch ids this run created
  int64_t pending_batches = 0;         // still running at the provider when the run ended
  uint64_t waiting = 0;                // records waiting for them or for the next round
  double discount = 0.5;               // the providers' batch price factor
  bool finished = false;               // every record is in OUT (the state was removed)
  int64_t requests = 0;                // requests this run put into the batches it created
  pipeline::StatsSnapshot stats;       // the records this run ended (--stats), as the live path
                                       // counts them; provider latency is not measured
};

// Runs the job over `input` (the whole input file). `out` and `resume` as in BatchRunner.
ProviderBatchReport RunProviderBatch(const ProviderBatchOptions& options,
                                     const ProviderBatchEnv& env, std::string_view input,
                                     JournalWriter* out, const JournalScan* resume);

// The summary's batch part: "3 provider batches in 2 rounds, batch discount 0.5" (with the
// waiting records when the run ended early).
std::string FormatBatchSummary(const ProviderBatchReport& report);

}  // namespace structure::batch
