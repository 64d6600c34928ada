// Writes call records to their store off the request path: Add only queues (never waits for
// the database); a background thread inserts batches, keeps what failed queued while the
// database is down, and drops the oldest when the queue is full, counting every drop. It also
// prunes the store to its retention (days and rows) now and then.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>

#include "registry/call_records.h"

namespace structure::registry {

struct CallRecordWriterOptions {
  size_t max_queued = 10000;  // records waiting; beyond, the oldest are dropped (counted)
  size_t batch = 200;         // records per insert
  std::chrono::milliseconds flush_every{200};
  int64_t keep_days = 30;       // retention by age
  int64_t keep_rows = 1000000;  // retention by count (the whole fleet's)
  std::chrono::milliseconds prune_every{std::chrono::minutes(10)};
};

class CallRecordWriter {
 public:
  CallRecordWriter(std::shared_ptr<CallRecordStore> store, CallRecordWriterOptions options);
  // Stops the thread after one last insert attempt of what is queued (bounded by the store's
  // statement timeout); what remains is counted as dropped.
  ~CallRecordWriter();
  CallRecordWriter(const CallRecordWriter&) = delete;
  CallRecordWriter& operator=(const CallRecordWriter&) = delete;

  void Add(CallRecord record);

  uint64_t written() const { return written_.load(); }
  uint64_t dropped() const { return dropped_.load(); }
  uint64_t pruned() const { return pruned_.load(); }
  size_t queued() const;  // waiting or being inserted
  // Whether the last insert or prune failed (the database is unreachable).
  bool failing() const { return failing_.load(); }

  // Waits until the queue is empty or `timeout` passes (tests); true when empty.
  bool Flush(std::chrono::milliseconds timeout);

 private:
  void Run();
  void DropOverflow();  // mu_ held

  const std::shared_ptr<CallRecordStore> store_;
  const CallRecordWriterOptions options_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::deque<CallRecord> queue_;  // guarded by mu_
  bool stop_ = false;             // guarded by mu_
  size_t inflight_ = 0;           // records of the insert under way; guarded by mu_
  std::atomic<uint64_t> written_{0};
  std::atomic<uint64_t> dropped_{0};
  std::atomic<uint64_t> pruned_{0};
  std::atomic<bool> failing_{false};
  std::thread thread_;
};

}  // namespace structure::registry
