// What a live `structure batch` job's OUT was written for: the input it read and the shard of
// that input. Kept beside OUT (OUT.job, next to a link's target), written when the job starts
// and checked by --resume, which refuses to continue OUT with another input or shard: the
// records would go to the wrong output (docs/batch.md). The provider-batch path keeps its own
// state (OUT.pbatch/) and checks the same.
#pragma once

#include <string>

#include "base/status.h"
#include "batch/shard.h"

namespace structure::batch {

struct JobIdentity {
  std::string input;  // the input file's absolute path, or "-" for stdin
  Shard shard;        // 1/1 without --shard
};

// The identity of a job reading `in_path` ("-" = stdin) in `shard`.
JobIdentity IdentityOf(const std::string& in_path, const Shard& shard);

// OUT.job for the output file at `out` (a resolved path, not a link).
std::string JobFilePath(const std::string& out);

// Writes `id` to JobFilePath(out), replacing it atomically.
Status RecordJob(const std::string& out, const JobIdentity& id);

// --resume of the output `shown` (as the user named it; `out` resolved): kFailedPrecondition
// naming the option that differs from what OUT.job records, e.g. "--shard: out.jsonl was
// written for shard 1/3 of its input, this run asks for 2/3 ...". When there is no OUT.job
// (OUT written by an older version), ok: `note` says so and the file is written now.
Status CheckJob(const std::string& out, const std::string& shown, const JobIdentity& now,
                std::string* note);

}  // namespace structure::batch
