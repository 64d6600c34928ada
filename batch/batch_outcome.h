// What a finished live `structure batch` job tells its user: the summary line, a warning about
// results that match no input record, and the exit status (docs/batch.md).
#pragma once

#include <string>

#include "batch/batch_runner.h"
#include "batch/in_flight_cap.h"
#include "batch/journal.h"

namespace structure::batch {

// "structure batch: 5000 records: ok ... in 16s, 312/s, ..., at most 32 in flight"; an
// interrupted job says how to go on, by whether its output is `resumable` (progress.h).
std::string LiveSummary(const BatchReport& report, const InFlightCap& cap, bool resumable);

// A resume from stdin can only tell at the end whether OUT held results of another input: the
// warning when `scan` (what OUT held) has results that no input record matched, "" otherwise.
std::string ForeignResultsWarning(const BatchReport& report, const JournalScan& scan,
                                  const std::string& out_path);

// 2 when the output could not be written, 130 when interrupted, 1 when some record is not ok,
// else 0.
int ExitStatus(const BatchReport& report);

}  // namespace structure::batch
