// Gemini batch mode with inline requests: POST /v1beta/models/{model}:batchGenerateContent
// with {"batch":{"displayName","inputConfig":{"requests":{"requests":[{"request":<body>,
// "metadata":{"key":custom_id}}]}}}}; the reply is a long-running operation ("batches/…"),
// polled with GET /v1beta/batches/…; when done its response holds the inlined responses, in
// request order, each a GenerateContentResponse or an error Status. Pure.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "providers/batch_wire.h"

namespace structure::providers::gemini_batch {

// Inline requests are limited by the size of the create request (20 MB); the count is not
// documented as a separate limit.
inline constexpr int64_t kMaxRequests = 100'000;
inline constexpr int64_t kMaxBytes = 20LL * 1024 * 1024;

size_t ItemBytes(const BatchItem& item);

// `model` as the live call names it ("gemini-2.5-flash" or "models/gemini-2.5-flash").
HttpRequest CreateBatch(const Endpoint& endpoint, std::string_view model,
                        std::string_view display_name, const std::vector<BatchItem>& items);
// `name` is the operation's name, "batches/…".
HttpRequest GetBatch(const Endpoint& endpoint, std::string_view name);
HttpRequest CancelBatch(const Endpoint& endpoint, std::string_view name);
HttpRequest ListBatches(const Endpoint& endpoint, int page_size);

// An operation: metadata.state BATCH_STATE_ (or JOB_STATE_) PENDING / RUNNING -> kRunning,
// SUCCEEDED -> kEnded, FAILED -> kFailed (error = the operation's error message), CANCELLED,
// EXPIRED -> themselves; counts from metadata.batchStats.
Result<BatchInfo> ParseBatch(const HttpResponse& response);

// The operation in a list response ({"operations":[…]}) whose metadata.displayName is
// `display_name`.
std::optional<std::string> FindInList(const HttpResponse& response, std::string_view display_name);

// Adds the inlined responses of a finished operation (the GET reply body) to `out`. Each
// response is matched by metadata.key, else by position in `custom_ids` (the request order).
// kInvalidArgument when the body is not an operation.
Status ParseResults(std::string_view operation_body, const std::vector<std::string>& custom_ids,
                    ItemResults& out);

}  // namespace structure::providers::gemini_batch
