// One record of a provider batch job: its loop (the engine's pure step functions,
// pipeline/loop/loop_run.h) and the calls it waits to send or for. Round k holds every unfinished
// record's k-th calls: a schema asked in parts (pipeline/loop/split_loop.h) puts every part in the
// same round, each a request of its own; a call whose result was a transient error is sent
// again in the next round. Pure: no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/json.h"
#include "pipeline/loop/content_loop.h"
#include "pipeline/loop/loop_run.h"
#include "pipeline/prepared_call.h"
#include "pipeline/request.h"
#include "pipeline/result.h"
#include "providers/batch_wire.h"

namespace structure::batch {

// A call of a record: sent in `round`, answered under `slot` (pipeline::SlotCall).
struct RecordCall {
  int slot = 0;
  providers::ProviderCall call;
  int round = 1;
  int tries = 0;           // transient failures of this call so far
  int64_t waiting_on = 0;  // the submit holding it (0: queued)
};

struct BatchRecord {
  uint64_t index = 0;    // position among the job's records, in input order
  Json id;               // the line's id (null: the record is keyed by its line)
  uint64_t line_no = 0;  // 1-based input line
  pipeline::PreparedCall prepared;
  pipeline::RunState state;
  std::vector<RecordCall> calls;                            // while the record runs
  std::optional<pipeline::CallResult> result;               // set once the record has ended
  pipeline::SchemaMode mode = pipeline::SchemaMode::kJson;  // the request's, for its stats label
  std::string schema_ref;                                   // the request's schema name or text
};

// "l17-r2": line 17's request in round 2; "l17-r2-s3": the one of slot 3 (a part of a split),
// so every request of a round has its own id (Anthropic's [A-Za-z0-9_-]{1,64}).
std::string CustomId(uint64_t line_no, int round, int slot = 0);
// false when `id` is not of that form.
bool ParseCustomId(std::string_view id, uint64_t* line_no, int* round, int* slot);

// The call of `r` with this round and slot, or nullptr.
RecordCall* FindCall(BatchRecord& r, int round, int slot);

// Starts the loop: the record holds round 1's calls.
void StartRecord(BatchRecord& r);

// Applies the result of the record's call of `slot`. A reply goes through the loop (the record
// ends, or holds its next calls for the next round). A transient error (expired, 5xx, 429
// inside the batch) resends the same call next round up to `retries` times; any other error,
// or one past the retries, goes to the loop as the live path would (an item's batch code
// instead, batch_cancelled, ... ends the record with it).
void ApplyItem(BatchRecord& r, int slot, const providers::ItemResult& item, int retries);

// Ends the record with an error of the batch run (request too large, no batch API).
void EndRecord(BatchRecord& r, ErrorCode code, std::string message);

}  // namespace structure::batch
