// The simulator's provider batch endpoints, in each provider's shapes:
//   OpenAI:    POST /v1/files (multipart, purpose batch), GET /v1/files/{id}[/content],
//              POST /v1/batches, GET /v1/batches[/{id}], POST /v1/batches/{id}/cancel
//   Anthropic: POST /v1/messages/batches, GET /v1/messages/batches[/{id}[/results]],
//              POST /v1/messages/batches/{id}/cancel
//   Gemini:    POST /v1beta/models/{model}:batchGenerateContent, GET /v1beta/batches[/{id}],
//              POST /v1beta/batches/{id}:cancel
// Each request inside a batch is answered like the live request with the same body
// (Simulator::AnswerBatchItem) when the batch ends, --batch-delay-ms after it was created.
#pragma once

#include <mutex>
#include <optional>

#include "http/http_message.h"
#include "sim/batch_store.h"
#include "sim/dialect.h"

namespace structure::sim {

class Simulator;

class SimBatches {
 public:
  SimBatches(BatchOptions options, uint64_t seed, Simulator& sim);

  // The response when `request` is for a batch or file endpoint; nullopt otherwise. Thread-safe.
  std::optional<http::HttpResponse> Handle(const http::HttpRequest& request);

 private:
  Simulator& sim_;
  std::mutex mu_;
  BatchStore store_;
};

// The routes of one provider; nullopt when the path is not one of theirs. Internal to
// SimBatches (sim_batches_*.cc).
std::optional<http::HttpResponse> ServeOpenAiBatches(BatchStore& store, const Dialect& dialect,
                                                     const KeyPolicy& keys,
                                                     const http::HttpRequest& request);
std::optional<http::HttpResponse> ServeAnthropicBatches(BatchStore& store, const Dialect& dialect,
                                                        const KeyPolicy& keys,
                                                        const http::HttpRequest& request);
std::optional<http::HttpResponse> ServeGeminiBatches(BatchStore& store, const Dialect& dialect,
                                                     const KeyPolicy& keys,
                                                     const http::HttpRequest& request);

}  // namespace structure::sim
