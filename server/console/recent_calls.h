// The console's ring of recent calls: a bounded, in-memory record of the last N structure calls
// of `structure serve`, for the insights page (latency percentiles, re-asks by keyword and
// pointer, needs, ungrounded fields) and, when the server keeps prompts, the evidence view.
// Without keep_prompts an entry holds no input text and no answer: only counts, pointers,
// keywords and the model's need text (cut to 200 bytes).
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "base/json.h"
#include "pipeline/request.h"
#include "pipeline/result.h"

namespace structure::server {

struct RecentCall {
  uint64_t id = 0;  // 1, 2, ... in arrival order
  int64_t at_ms = 0;
  std::string tenant;
  std::string project;  // "" = the tenant level
  std::string schema;   // the metrics label (pipeline::SchemaLabel)
  std::string schema_origin;
  pipeline::Outcome status = pipeline::Outcome::kError;
  std::string code;  // error code
  int iterations = 0;
  double seconds = 0;
  std::string provider;
  std::string model;
  providers::Usage usage;
  pipeline::ReaskCounts reasks{};
  struct Issue {
    std::string pointer;
    std::string keyword;
  };
  std::vector<Issue> issues;  // of every re-asked round
  std::string need;
  std::vector<std::string> grounded;  // evidence pointers
  std::vector<std::string> ungrounded;
  // keep_prompts only: the input and the result JSON as answered (trace included).
  std::string prompt;
  Json result;
  size_t kept_bytes = 0;  // of prompt and result, for the ring's byte bound
};

// From a finished call. `result_json` (the answer's JSON, trace included when there is one) and
// the prompt are kept only when `keep_prompts`.
RecentCall MakeRecentCall(const pipeline::StructureRequest& request,
                          const pipeline::StructureResult& result, double seconds,
                          bool keep_prompts, Json result_json);

// Thread-safe. Keeps at most `capacity` calls and about `max_bytes` of kept prompts and results;
// the oldest go first.
class RecentCalls {
 public:
  RecentCalls(size_t capacity, size_t max_bytes);

  void Add(RecentCall call);  // sets id and at_ms when 0

  // Newest first, at most `limit`, those `visible` accepts.
  std::vector<RecentCall> List(const std::function<bool(const RecentCall&)>& visible,
                               size_t limit) const;
  std::optional<RecentCall> Get(uint64_t id) const;

  size_t capacity() const { return capacity_; }

 private:
  const size_t capacity_;
  const size_t max_bytes_;
  mutable std::mutex mu_;
  std::deque<RecentCall> calls_;  // oldest first
  size_t bytes_ = 0;
  uint64_t next_id_ = 1;
};

// {"id","atMs","project","schema","schemaOrigin","status","code"?,"iterations","seconds",
//  "provider","model","usage","reasks":{reason:n},"issues":[{"pointer","keyword"}],"need"?,
//  "grounded":[...],"ungrounded":[...],"hasPrompt"}
Json RecentCallSummary(const RecentCall& call);

}  // namespace structure::server
