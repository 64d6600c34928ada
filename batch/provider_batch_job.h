// Internal to provider_batch.cc and provider_batch_rounds.cc: one run of a provider batch job.
#pragma once

#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "batch/batch_client.h"
#include "batch/batch_record.h"
#include "batch/batch_state.h"
#include "batch/output_lines.h"
#include "batch/provider_batch.h"

namespace structure::batch {

class ProviderBatchJob {
 public:
  ProviderBatchJob(const ProviderBatchOptions& options, const ProviderBatchEnv& env,
                   JournalWriter* out, const JournalScan* resume);
  ProviderBatchReport Run(std::string_view input);

 private:
  // provider_batch.cc: input, schema stage, output.
  void Load(std::string_view input);
  void PrepareAll(std::vector<std::pair<size_t, pipeline::StructureRequest>> requests);
  Status OpenState();
  void Emit(uint64_t index, const Json& id, uint64_t line_no, pipeline::StructureResult result);
  void EmitRecord(BatchRecord& r);
  void Flush();
  bool Interrupted() const;
  bool Sleep(std::chrono::milliseconds delay) const;
  uint64_t Unfinished() const;
  void DrawProgress();

  // provider_batch_rounds.cc: replay, submit, poll, apply.
  Status Replay();
  Status ResolveIncomplete();
  Status SubmitQueued();
  Status PollPending(bool* changed);
  // A call of a record: the record's index and the call's slot (in the submit's round).
  using Member = std::pair<size_t, int>;
  Status SubmitChunk(const std::string& provider, const std::string& model, int round,
                     const std::vector<Member>& chunk, int64_t seq);
  Status Send(const SubmitRecord& submit, const std::vector<Member>& members);
  RecordCall& CallOf(const Member& m, int round);
  void ApplyResults(int64_t seq, const providers::ItemResults& results);
  void ApplyRejection(int64_t seq, const std::string& message);
  Result<providers::ItemResults> StoredResults(const SubmitRecord& submit);
  BatchClient& Client(const std::string& provider);
  BatchCaps Caps(const std::string& provider) const;
  std::vector<Member> Members(const SubmitRecord& submit);

  const ProviderBatchOptions& opt_;
  const ProviderBatchEnv& env_;
  JournalWriter* out_;
  const JournalScan* resume_;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();

  std::vector<BatchRecord> records_;                      // records that reached the content stage
  std::map<uint64_t, size_t> by_line_;                    // line_no -> index into records_
  std::map<std::string, providers::Endpoint> endpoints_;  // provider -> where its calls go
  std::map<std::string, std::unique_ptr<BatchClient>> clients_;
  std::optional<BatchState> state_;
  std::map<int64_t, providers::BatchInfo> last_poll_;  // running batches, for progress

  // Output: with --ordered, lines wait in `slots_` until every earlier record is written.
  uint64_t total_ = 0;  // records in the input (non-blank lines)
  std::vector<std::optional<OutputLine>> slots_;
  std::vector<bool> skipped_;  // already in OUT (--resume)
  uint64_t next_out_ = 0;
  OutputLines buffer_;  // lines not yet appended
  ProviderBatchReport report_;
  pipeline::CallStats stats_;
  std::chrono::steady_clock::time_point last_draw_{};
};

}  // namespace structure::batch
