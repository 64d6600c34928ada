// One record of a provider batch job: its content loop (the engine's pure step functions) and
// the call it waits to send. Round k holds every unfinished record's k-th call; a call whose
// result was a transient error is sent again in the next round. Pure: no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "base/json.h"
#include "pipeline/content_loop.h"
#include "pipeline/prepared_call.h"
#include "pipeline/request.h"
#include "pipeline/result.h"
#include "providers/batch_wire.h"

namespace structure::batch {

struct BatchRecord {
  uint64_t index = 0;    // position among the job's records, in input order
  Json id;               // the line's id (null: the record is keyed by its line)
  uint64_t line_no = 0;  // 1-based input line
  pipeline::PreparedCall prepared;
  pipeline::LoopState state;
  std::optional<providers::ProviderCall> call;              // the next call, while the record runs
  int round = 1;                                            // the round `call` belongs to
  int tries = 0;                                            // transient failures of `call` so far
  std::optional<pipeline::StructureResult> result;          // set once the record has ended
  int64_t waiting_on = 0;                                   // the submit holding `call` (0: none)
  pipeline::SchemaMode mode = pipeline::SchemaMode::kJson;  // the request's, for its stats label
  std::string schema_ref;                                   // the request's schema name or text
};

// "l17-r2": line 17's request in round 2 (fits Anthropic's [A-Za-z0-9_-]{1,64}).
std::string CustomId(uint64_t line_no, int round);
// false when `id` is not of that form.
bool ParseCustomId(std::string_view id, uint64_t* line_no, int* round);

// Starts the loop: the record holds round 1's call.
void StartRecord(BatchRecord& r);

// Applies the result of the record's call. A reply goes through the content loop (the record
// ends, or holds the re-ask for the next round). A transient error (expired, 5xx, 429 inside
// the batch) resends the same call next round up to `retries` times; any other error, or one
// past the retries, ends the record: with the item's batch code (batch_cancelled, ...) or as
// the live path ends a call that failed with that Status.
void ApplyItem(BatchRecord& r, const providers::ItemResult& item, int retries);

// Ends the record with an error of the batch run (request too large, no batch API).
void EndRecord(BatchRecord& r, std::string code, std::string message);

}  // namespace structure::batch
