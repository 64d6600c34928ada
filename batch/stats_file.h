// `structure batch --stats FILE`: the engine's metrics of the run (per schema and per
// provider, pipeline/call_stats.h) as one JSON document, written when the batch ends.
#pragma once

#include <string>

#include "base/status.h"
#include "batch/batch_runner.h"
#include "pipeline/call_stats.h"

namespace structure::batch {

// Checked before the run starts, so a bad path fails at once: kInvalidArgument when `path` is
// a directory ("--stats DIR: is a directory") or another kind of file that cannot be written
// (a socket), its folder cannot be written, or it is one of the job's own files (`input`,
// `output`; "" = stdin / stdout).
Status CheckStatsPath(const std::string& path, const std::string& input, const std::string& output);

// {"run":{"records","resumed","elapsedSeconds","interrupted"},"schemas":...,"providers":...}:
// the run's record counts, then StatsToJson (the calls of this run; resumed records made none).
Json StatsDocument(const BatchReport& report, const pipeline::StatsSnapshot& stats);

// Writes StatsDocument to `path` by the rules of base/output_file.h: a regular file is replaced
// atomically (a reader sees the whole document or none), a link's target is written, a device
// or FIFO is written in place.
Status WriteStatsFile(const std::string& path, const BatchReport& report,
                      const pipeline::StatsSnapshot& stats);

// Writes `doc` to `path` as WriteStatsFile does (--provider-batch builds its own document).
Status WriteStatsJson(const std::string& path, const Json& doc);

}  // namespace structure::batch
