// Anthropic Message Batches: POST /v1/messages/batches with requests[] of {custom_id, params}
// (params = the live call's /v1/messages body), poll GET /v1/messages/batches/{id} until
// processing_status is "ended", then read the results JSONL from results_url. Pure.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "providers/batch_wire.h"

namespace structure::providers::anthropic_batch {

inline constexpr int64_t kMaxRequests = 100'000;           // per batch
inline constexpr int64_t kMaxBytes = 256LL * 1024 * 1024;  // per create request

// The bytes one item adds to the create request body (its {"custom_id","params"} element and
// a comma), for splitting a round at kMaxBytes.
size_t ItemBytes(const BatchItem& item);

// POST /v1/messages/batches {"requests":[{"custom_id":…,"params":<body>}…]}.
HttpRequest CreateBatch(const Endpoint& endpoint, const std::vector<BatchItem>& items);
HttpRequest RetrieveBatch(const Endpoint& endpoint, std::string_view batch_id);
HttpRequest CancelBatch(const Endpoint& endpoint, std::string_view batch_id);
HttpRequest ListBatches(const Endpoint& endpoint, int limit);
// GET of the batch's results. The key is only sent to the endpoint's own host: a results_url
// elsewhere is replaced by the documented path /v1/messages/batches/{id}/results.
HttpRequest Results(const Endpoint& endpoint, const BatchInfo& info);

// A message_batch object: processing_status "ended" -> kEnded (every request has a result
// line, cancelled and expired ones included), anything else -> kRunning.
Result<BatchInfo> ParseBatch(const HttpResponse& response);

// The batches of a list response ({"data":[…]}) created at or after `since_unix_ms` whose
// request counts add up to `requests`; their ids, newest first as listed.
std::vector<std::string> MatchInList(const HttpResponse& response, int64_t since_unix_ms,
                                     int64_t requests);

// Adds the result lines to `out`: succeeded -> the message as the live call would have parsed
// it; errored -> the error body's Status (api_error / overloaded_error / rate_limit_error are
// transient); canceled -> batch_cancelled; expired -> batch_expired (transient).
// kInvalidArgument "line N: …" for a line without custom_id and result.
Status ParseResults(std::string_view jsonl, ItemResults& out);

}  // namespace structure::providers::anthropic_batch
