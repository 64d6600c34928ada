// One provider's batch API as the round runner uses it: submit a batch of requests, poll it,
// download its results into text that is stored beside the output, and parse that text back
// into per-request results. OpenAI, Anthropic and Gemini; the bytes come from providers/*_batch.
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "batch/http_client.h"
#include "providers/batch_wire.h"
#include "providers/endpoint.h"

namespace structure::batch {

// The provider's own caps on one batch.
struct BatchCaps {
  int64_t max_requests = 0;
  int64_t max_bytes = 0;
};

// True for the kinds with a batch API (openai, anthropic, gemini).
bool HasBatchApi(providers::ProviderKind kind);
BatchCaps ProviderCaps(providers::ProviderKind kind);

// The bytes one request adds to its batch (the OpenAI file line, the element of the create
// request), for splitting at max_bytes.
size_t ItemBytes(providers::ProviderKind kind, const providers::BatchItem& item);

struct SubmitRequest {
  std::string key;    // unique per submit of the job: OpenAI metadata, Gemini display name
  std::string model;  // OpenAI and Gemini batches hold one model
  std::vector<providers::BatchItem> items;
};

// What a poll saw: the parsed state and the body it came in (Gemini's holds the results).
struct Polled {
  providers::BatchInfo info;
  std::string body;
};

class BatchClient {
 public:
  BatchClient(providers::Endpoint endpoint, SendFn send, SleepFn sleep);

  providers::ProviderKind kind() const { return endpoint_.kind; }

  // Creates the batch; its id. OpenAI uploads the file first, unless `file_id` already names
  // one (a resumed submit); `uploaded` is told the new file's id before the batch is created.
  // A create whose answer was lost (a 5xx, a reset, a timeout) may still have created the
  // batch, so it is looked for (Find, since `since_unix_ms`) before it is sent again.
  // Errors: the provider's Status (after retries): retryable codes mean "try later",
  // others that the provider refused this batch.
  Result<std::string> Submit(const SubmitRequest& request, const std::string& file_id,
                             const std::function<void(const std::string&)>& uploaded,
                             int64_t since_unix_ms);

  Result<Polled> Poll(const std::string& batch_id);

  // The results of an ended batch as text to store: its final state (the poll's body, one
  // line) followed by the result lines (OpenAI output and error files, Anthropic results).
  Result<std::string> Download(const Polled& polled);

  // A batch created for `request` whose id never reached the journal (a kill between the
  // create call and the journal write): found by key (OpenAI metadata, Gemini display name),
  // or for Anthropic as the only batch created since `since_unix_ms` with as many requests.
  Result<std::optional<std::string>> Find(const SubmitRequest& request, int64_t since_unix_ms);

  // A batch id the job's journal holds: never the answer of a Find.
  void Remember(const std::string& batch_id) { known_.insert(batch_id); }

 private:
  Result<providers::HttpResponse> Call(const providers::HttpRequest& request);
  // The create request, sent until the provider answers it (429s wait), never twice for one
  // batch: a lost answer is followed by a Find.
  Result<providers::HttpResponse> Create(const providers::HttpRequest& create,
                                         const SubmitRequest& request, int64_t since_unix_ms,
                                         std::optional<std::string>* found);

  providers::Endpoint endpoint_;
  SendFn send_;
  SleepFn sleep_;
  std::set<std::string> known_;
};

// Parses stored results (Download's text) for the requests `custom_ids` of that batch: each
// gets its result, or the batch state's verdict when the provider gave none.
Result<providers::ItemResults> ParseStored(providers::ProviderKind kind, std::string_view stored,
                                           const std::vector<std::string>& custom_ids);

}  // namespace structure::batch
