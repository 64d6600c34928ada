// `structure batch --provider-batch`: its flags, the checks before any work (an input file and
// -o OUT are required; a job in progress beside OUT), and the run over the engine's schema
// stage (batch/provider_batch.h).
#pragma once

#include <atomic>
#include <string>
#include <vector>

#include "apps/structure/args.h"
#include "batch/batch_runner.h"
#include "batch/provider_batch.h"
#include "engine/engine.h"

namespace structure::apps {

// The flags --provider-batch adds to `structure batch`.
void AddProviderBatchFlags(std::vector<FlagSpec>& spec);

// The state directory of OUT's provider batch job: OUT.pbatch.
std::string ProviderBatchStateDir(const std::string& out_path);

// Checks made before OUT is opened: kInvalidArgument (exit 2) naming the flag or file when
// --provider-batch lacks an input file or -o OUT, when a number flag is out of its range, or
// when OUT.pbatch holds a job and neither --resume nor --overwrite was given. With --overwrite
// the old state is removed. Flags that only apply to --provider-batch are refused without it.
Status CheckProviderBatchFlags(const Args& args, const std::string& in_path,
                               const std::string& out_path, bool resume);

// Sets the number flags (--poll-ms, --max-poll-ms, --batch-max-requests, --batch-max-bytes,
// --batch-retries) into `o`; kInvalidArgument "--poll-ms: must be 1..86400000 (was 0)".
Status ApplyProviderBatchNumbers(const Args& args, batch::ProviderBatchOptions& o);

// Runs the job; the exit code (0 all ok, 1 not all ok or stopped, 2 bad state or flags, 130
// interrupted). Prints the summary line.
int RunProviderBatchCommand(const Args& args, const batch::BatchOptions& options,
                            const std::string& in_path, const std::string& out_path, Engine& engine,
                            batch::JournalWriter& out, const batch::JournalScan* resume,
                            const std::atomic<int>* interrupts);

}  // namespace structure::apps
