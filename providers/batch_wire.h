// Plain structs shared by the provider batch wire formats (OpenAI Batch, Anthropic Message
// Batches, Gemini batch mode): what a batch holds, what its status says, and what each request
// in it came back with. No I/O here; openai_batch.h, anthropic_batch.h and gemini_batch.h build
// and parse the bytes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"
#include "providers/call.h"
#include "providers/endpoint.h"
#include "providers/http.h"
#include "structure/error_code.h"

namespace structure::providers {

// One request of a batch: its id inside the batch and the HTTP request the live path would
// send (only the body goes into the batch; the URL and headers are the live call's).
struct BatchItem {
  std::string custom_id;  // [A-Za-z0-9_-]{1,64} (Anthropic's rule, the strictest)
  const HttpRequest* request = nullptr;
};

enum class BatchState {
  kRunning,    // validating, queued, in progress, finalizing, cancelling
  kEnded,      // every request has a result (OpenAI completed, Anthropic ended, Gemini succeeded)
  kFailed,     // the batch was rejected as a whole (OpenAI validation, Gemini failed)
  kExpired,    // the completion window passed; unfinished requests have no answer
  kCancelled,  // cancelled; unfinished requests have no answer
};

std::string_view BatchStateName(BatchState state);  // "running", "ended", ...

// What a retrieve call says about a batch.
struct BatchInfo {
  std::string id;  // batch_..., msgbatch_..., batches/...
  BatchState state = BatchState::kRunning;
  std::string status;  // the provider's own word ("in_progress", "BATCH_STATE_RUNNING")
  int64_t total = 0;   // requests in the batch (0 when not reported)
  int64_t succeeded = 0;
  int64_t failed = 0;          // errored, expired or cancelled requests so far
  std::string output_file_id;  // OpenAI
  std::string error_file_id;   // OpenAI
  std::string results_url;     // Anthropic
  std::string error;           // why a failed batch failed (provider's code and message)
  bool Ended() const { return state != BatchState::kRunning; }
};

// The outcome of one request of a batch. `reply` holds what the live path's ParseReply returns
// for the same answer (or the error Status it returns for the same HTTP error). `transient`
// marks errors where the same request may succeed when sent again (a 5xx or 429 inside the
// batch, an expired request); `code` names batch-level causes (kBatchExpired, kBatchCancelled,
// kBatchFailed, kBatchMissing) and is empty for a provider's reply.
struct ItemResult {
  Result<ProviderReply> reply = Status(Code::kUnavailable, "no result");
  bool transient = false;
  std::optional<ErrorCode> code;
};

using ItemResults = std::map<std::string, ItemResult>;  // by custom_id

// The result of a request the provider did not answer, from the batch's final state: expired
// and cancelled batches leave requests without an answer (expired: transient), a failed batch
// fails all of them with its error, an ended batch that lost one reports it as missing.
ItemResult UnansweredItem(const BatchInfo& info, std::string_view provider);

// An ItemResult from an HTTP status and body as the live call would have received them.
ItemResult ItemFromHttp(ProviderKind kind, int status, std::string body);

// Calls `fn(line_no, line)` for each non-blank line of JSONL text (1-based line numbers) and
// stops at the first error it returns.
Status ForEachLine(std::string_view text,
                   const std::function<Status(uint64_t line_no, std::string_view line)>& fn);

// A multipart/form-data body: one text field per `fields` entry and one file part. `boundary`
// must not occur in the contents.
std::string MultipartBody(std::string_view boundary,
                          const std::vector<std::pair<std::string, std::string>>& fields,
                          std::string_view file_field, std::string_view file_name,
                          std::string_view file_type, std::string_view file_content);

}  // namespace structure::providers
