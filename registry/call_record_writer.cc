#include "registry/call_record_writer.h"

#include <utility>
#include <vector>

#include "base/time_format.h"

namespace structure::registry {

CallRecordWriter::CallRecordWriter(std::shared_ptr<CallRecordStore> store,
                                   CallRecordWriterOptions options)
    : store_(std::move(store)), options_(options), thread_([this] { Run(); }) {}

CallRecordWriter::~CallRecordWriter() {
  {
    std::lock_guard<std::mutex> lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void CallRecordWriter::Add(CallRecord record) {
  {
    std::lock_guard<std::mutex> lock(mu_);
    queue_.push_back(std::move(record));
    DropOverflow();
    if (queue_.size() < options_.batch) return;
  }
  cv_.notify_one();
}

void CallRecordWriter::DropOverflow() {
  while (queue_.size() > options_.max_queued) {
    queue_.pop_front();
    dropped_.fetch_add(1);
  }
}

size_t CallRecordWriter::queued() const {
  std::lock_guard<std::mutex> lock(mu_);
  return queue_.size() + inflight_;
}

bool CallRecordWriter::Flush(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (std::chrono::steady_clock::now() < deadline) {
    cv_.notify_one();
    if (queued() == 0) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return queued() == 0;
}

void CallRecordWriter::Run() {
  auto next_prune = std::chrono::steady_clock::now();
  std::unique_lock<std::mutex> lock(mu_);
  for (;;) {
    cv_.wait_for(lock, options_.flush_every,
                 [this] { return stop_ || queue_.size() >= options_.batch; });
    bool stopping = stop_;
    while (!queue_.empty()) {
      size_t n = std::min(queue_.size(), options_.batch);
      std::vector<CallRecord> batch(std::make_move_iterator(queue_.begin()),
                                    std::make_move_iterator(queue_.begin() + n));
      queue_.erase(queue_.begin(), queue_.begin() + n);
      inflight_ = n;
      lock.unlock();
      Status s = store_->Insert(batch);
      lock.lock();
      inflight_ = 0;
      failing_.store(!s.ok());
      if (s.ok()) {
        written_.fetch_add(n);
        continue;
      }
      if (stopping) {
        dropped_.fetch_add(n + queue_.size());
        queue_.clear();
        return;
      }
      // Kept for the next round (oldest first), within the bound.
      for (auto it = batch.rbegin(); it != batch.rend(); ++it) queue_.push_front(std::move(*it));
      DropOverflow();
      break;
    }
    if (stopping) return;
    if (std::chrono::steady_clock::now() >= next_prune) {
      next_prune = std::chrono::steady_clock::now() + options_.prune_every;
      lock.unlock();
      int64_t before = UnixNowMs() - options_.keep_days * 24 * 3600 * 1000;
      auto removed = store_->Prune(before, options_.keep_rows);
      if (removed.ok()) pruned_.fetch_add(static_cast<uint64_t>(*removed));
      lock.lock();
    }
  }
}

}  // namespace structure::registry
