// The durable state of a provider batch job, in a directory beside the output (OUT.pbatch/):
// journal.jsonl records every submit (its requests, before anything is sent), the uploaded
// file and the batch id the provider gave it, a refusal, and that its results were read;
// <seq>.results holds each batch's downloaded results. Every journal line is written with one
// write(2) and fdatasync, and a results file is renamed into place before the journal names
// it, so a job killed at any moment never submits or downloads a batch twice on --resume.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "base/status.h"

namespace structure::batch {

struct SubmitRecord {
  int64_t seq = 0;       // 1, 2, ... in the order submits were planned
  int round = 0;         // the round its requests belong to
  std::string provider;  // [providers.<name>]
  std::string model;
  std::string key;                      // job id + seq: OpenAI metadata, Gemini display name
  std::vector<std::string> custom_ids;  // "l<line>-r<round>", one per request
  int64_t at_ms = 0;                    // Unix ms when planned (Anthropic lookup after a kill)
  std::string file_id;                  // OpenAI: the uploaded input file
  std::string batch_id;                 // set once the provider accepted it
  bool rejected = false;                // the provider refused it (its requests end in error)
  std::string reject_message;
  bool read = false;  // its results are stored in <seq>.results
};

class BatchState {
 public:
  // Opens (creating it when missing) the state directory and reads its journal. A torn last
  // line is ignored; another unreadable line is kInvalidArgument "DIR/journal.jsonl:N: …".
  static Result<BatchState> Open(const std::string& dir);

  // True when the directory holds a journal with a job line.
  static bool Exists(const std::string& dir);

  const std::string& dir() const { return dir_; }
  const std::string& job_id() const { return job_id_; }
  const std::string& fingerprint() const { return fingerprint_; }
  bool started() const { return !job_id_.empty(); }
  const std::map<int64_t, SubmitRecord>& submits() const { return submits_; }
  int64_t next_seq() const { return submits_.empty() ? 1 : submits_.rbegin()->first + 1; }

  // Journal writes; each one is durable when it returns (kUnavailable with the OS reason).
  Status Begin(const std::string& job_id, const std::string& fingerprint);
  Status Planned(const SubmitRecord& submit);
  Status Uploaded(int64_t seq, const std::string& file_id);
  Status Created(int64_t seq, const std::string& batch_id);
  Status Rejected(int64_t seq, const std::string& message);
  // Stores the results durably, then journals that they were read.
  Status Read(int64_t seq, const std::string& results);

  Result<std::string> Results(int64_t seq) const;

  // Deletes the directory (the job is finished: every record is in OUT).
  Status Remove();

  // The first journal or results write that failed (disk full), ok when none: an output error
  // of the job, like a failed write to OUT.
  const Status& write_error() const { return write_error_; }

 private:
  Status Append(const std::string& line);
  Status Noted(Status st);  // keeps the first failure in write_error_
  Status Apply(const std::string& line, uint64_t line_no);

  std::string dir_;
  std::string job_id_;
  std::string fingerprint_;
  std::map<int64_t, SubmitRecord> submits_;
  Status write_error_;
};

}  // namespace structure::batch
