// OpenAI Batch API: the requests go up as a JSONL file (POST /v1/files, purpose "batch"), a
// batch is created over it (POST /v1/batches, endpoint /v1/chat/completions or /v1/responses as
// the model's API is, window 24h),
// polled (GET /v1/batches/{id}) and its output and error files downloaded
// (GET /v1/files/{id}/content). Pure: builds requests and parses responses.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "providers/batch_wire.h"

namespace structure::providers::openai_batch {

inline constexpr std::string_view kEndpoint = "/v1/chat/completions";
inline constexpr std::string_view kResponsesEndpoint = "/v1/responses";
inline constexpr int64_t kMaxRequests = 50'000;            // per batch file
inline constexpr int64_t kMaxBytes = 200LL * 1024 * 1024;  // per batch file

// The batch endpoint of `model`'s calls at `endpoint`: kResponsesEndpoint when they go to the
// Responses API (ApiFor, providers/models.h), else kEndpoint.
std::string_view EndpointFor(const Endpoint& endpoint, std::string_view model);

// One line of the input file, newline included:
// {"custom_id":…,"method":"POST","url":<the live call's path>,"body":<the live call's body>},
// the path /v1/responses for a request built for the Responses API, else /v1/chat/completions.
std::string InputLine(const BatchItem& item);

// POST /v1/files, multipart/form-data with purpose=batch and the JSONL as `file`.
HttpRequest UploadFile(const Endpoint& endpoint, std::string_view jsonl,
                       std::string_view file_name);

// The id of an uploaded file ({"id":"file-…","object":"file",…}). Non-2xx: the provider's
// error as a Status (StatusFromHttp codes: 429 kResourceExhausted, 5xx kUnavailable, ...).
Result<std::string> ParseFile(const HttpResponse& response);

// POST /v1/batches {"input_file_id","endpoint","completion_window":"24h","metadata"};
// `batch_endpoint` is the url of every line (EndpointFor).
HttpRequest CreateBatch(const Endpoint& endpoint, std::string_view input_file_id,
                        const std::vector<std::pair<std::string, std::string>>& metadata,
                        std::string_view batch_endpoint = kEndpoint);
HttpRequest RetrieveBatch(const Endpoint& endpoint, std::string_view batch_id);
HttpRequest CancelBatch(const Endpoint& endpoint, std::string_view batch_id);
HttpRequest ListBatches(const Endpoint& endpoint, int limit);
HttpRequest FileContent(const Endpoint& endpoint, std::string_view file_id);

// A batch object. Status mapping: completed -> kEnded; failed -> kFailed (error = the first of
// errors.data, "code: message (line N)"); expired, cancelled -> themselves; validating,
// in_progress, finalizing, cancelling -> kRunning.
Result<BatchInfo> ParseBatch(const HttpResponse& response);

// The id of the first batch in a list response ({"data":[batch…]}) whose metadata[key] is
// `value`; nullopt when none is.
std::optional<std::string> FindInList(const HttpResponse& response, std::string_view key,
                                      std::string_view value);

// Adds the lines of an output or error file to `out`. A line with a response holds what the
// live call would have received (status_code + body); a line with only an error is
// batch_expired (transient), batch_cancelled, or another request error. kInvalidArgument
// "line N: …" for a line that is not a result object with a custom_id.
Status ParseResults(std::string_view jsonl, ItemResults& out);

}  // namespace structure::providers::openai_batch
