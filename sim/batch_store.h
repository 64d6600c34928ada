// The simulator's provider batches: uploaded files (OpenAI) and batches of any provider, with
// their requests, a completion delay, injected faults and, once a batch ends, each request's
// fate and answer. Not thread-safe: SimBatches serializes access.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/json.h"
#include "http/http_message.h"
#include "sim/chat.h"
#include "sim/stats.h"

namespace structure::sim {

struct BatchOptions {
  int delay_ms = 0;           // a batch ends this long after it was created
  double error_rate = 0;      // share of requests answered with a transient server error
  double expire_rate = 0;     // share of requests left unanswered as expired
  double reject_rate = 0;     // share answered with the provider's 400 (a permanent error)
  double malformed_rate = 0;  // share answered 200 with a body that is not a reply
  // Batch faults by the batch's ordinal (1 = the first batch created): "failed", "expired"
  // (the second half of its requests expires) or "cancelled" (the second half is cancelled).
  std::map<int64_t, std::string> faults;
  int64_t max_requests = 0;  // per batch; 0 = the provider's own limit
  int64_t max_bytes = 0;     // per batch file / create request; 0 = the provider's limit
  int slow_download_ms = 0;  // results are sent in 1 KB pieces this many ms apart
  // Batch ordinals whose create call creates the batch but answers 500, as if the answer was
  // lost on the way (a client must not create the batch again).
  std::set<int64_t> lost_creates;
};

enum class ItemFate { kAnswered, kErrored, kExpired, kCancelled };

struct SimItem {
  std::string custom_id;
  std::string body;  // the request body, as the live endpoint would get it
  ItemFate fate = ItemFate::kAnswered;
  int status = 0;           // kAnswered: HTTP status of the answer
  std::string answer = {};  // kAnswered: its body
};

struct SimBatch {
  Provider provider = Provider::kOpenAi;
  std::string id;
  int64_t ordinal = 0;
  std::string model;          // Gemini: from the URL
  std::string display_name;   // Gemini
  Json metadata;              // OpenAI
  std::string input_file_id;  // OpenAI
  std::string endpoint;       // OpenAI: the path of every request ("" = /v1/chat/completions)
  int64_t created_s = 0;      // Unix seconds
  std::chrono::steady_clock::time_point due;
  std::string fault;  // "" | "failed" | "expired" | "cancelled"
  bool ended = false;
  std::string end_state;  // "completed" | "failed" | "expired" | "cancelled"
  std::vector<SimItem> items;
  std::string output_file_id;  // OpenAI, once ended
  std::string error_file_id;   // OpenAI, once ended
};

struct SimFile {
  std::string id;
  std::string purpose;
  std::string name;
  std::string content;
  int64_t created_s = 0;
  bool result = false;  // an output or error file of a batch (downloads are counted)
};

class BatchStore {
 public:
  // `answer` answers one request of a batch of `provider` (path = the live endpoint's path).
  using AnswerFn = std::function<http::HttpResponse(Provider provider, const std::string& path,
                                                    const std::string& body)>;
  // `reject` is the provider's 400 error response for a request it refuses.
  using RejectFn = std::function<http::HttpResponse(Provider provider, const std::string& message)>;
  BatchStore(BatchOptions options, uint64_t seed, Stats& stats, AnswerFn answer, RejectFn reject);

  const BatchOptions& options() const { return options_; }

  SimFile& AddFile(std::string purpose, std::string name, std::string content, bool result = false);
  SimFile* FindFile(const std::string& id);

  // A new batch holding `items`, counted in batches.created and batches.requests; its fault
  // comes from the options by ordinal. `id_prefix` is "batch_", "msgbatch_" or "batches/".
  SimBatch& Create(Provider provider, const std::string& id_prefix, std::vector<SimItem> items);

  // The batch, ended first when its time has come (answers computed, fates drawn). nullptr
  // when unknown (or of another provider).
  SimBatch* Find(Provider provider, const std::string& id);

  // Ends a batch that has not ended: every request cancelled. Returns the batch (nullptr when
  // unknown).
  SimBatch* Cancel(Provider provider, const std::string& id);

  // The provider's batches, newest first, each ended first when due.
  std::vector<SimBatch*> List(Provider provider);

  void CountDownload() { stats_.CountBatchDownload(); }
  // Whether this batch's create answer is to be lost (BatchOptions::lost_creates).
  bool LoseCreateAnswer(const SimBatch& batch) const {
    return options_.lost_creates.count(batch.ordinal) > 0;
  }
  // A results download: counted, and sent slowly when the options say so.
  void Download(http::HttpResponse& response) {
    CountDownload();
    if (options_.slow_download_ms > 0) {
      response.delivery.chunk_bytes = 1024;
      response.delivery.chunk_delay = std::chrono::milliseconds(options_.slow_download_ms);
    }
  }

 private:
  void EndIfDue(SimBatch& batch);
  void End(SimBatch& batch);
  std::string LivePath(const SimBatch& batch) const;

  BatchOptions options_;
  uint64_t seed_;
  Stats& stats_;
  AnswerFn answer_;
  RejectFn reject_;
  int64_t next_ordinal_ = 1;
  uint64_t next_file_ = 1;
  std::vector<std::unique_ptr<SimBatch>> batches_;  // creation order
  std::map<std::string, std::unique_ptr<SimFile>> files_;
};

}  // namespace structure::sim
