// The batch driver: reads JSONL requests, keeps at most K calls in flight through an
// asynchronous submit function (Engine::Submit in the command, a fake in tests), and journals
// every result as soon as it is known, in input order (--ordered, bounded reorder window) or
// as completed. Records already in the journal (--resume) are skipped.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "batch/batch_line.h"
#include "batch/journal.h"
#include "batch/progress.h"
#include "batch/shard.h"
#include "pipeline/request.h"
#include "pipeline/result.h"

namespace structure::batch {

// Starts one call; `done` must run exactly once, on any thread.
using SubmitFn = std::function<void(pipeline::StructureRequest request,
                                    std::function<void(pipeline::StructureResult)> done)>;

struct BatchOptions {
  uint64_t concurrency = 16;    // K: calls in flight at most
  bool ordered = false;         // write in input order
  uint64_t reorder_window = 0;  // ordered: max records started past the oldest unwritten (0 = 4 K)
  LineDefaults defaults;
  Shard shard;  // --shard I/N: only the records of shard I (default 1/1: all)
  // Incremented by the SIGINT and SIGTERM handler. 1: stop reading input, let in-flight calls
  // finish. 2: call `cancel` (in-flight calls answer "cancelled" and are journaled as such).
  const std::atomic<int>* interrupts = nullptr;
  std::function<void()> cancel;
  bool progress = false;          // redraw a progress line on stderr
  std::optional<uint64_t> total;  // records expected (for ETA), resumed ones included
};

struct BatchReport {
  BatchCounts resumed;        // from the journal before this run
  BatchCounts run;            // written by this run
  uint64_t started = 0;       // records taken from the input this run
  uint64_t resumed_seen = 0;  // input records skipped because the journal has them
  bool interrupted = false;   // input not read to the end, or calls cancelled
  double elapsed_s = 0;
  Status io_error;  // the journal could not be written (the run stopped)
  BatchCounts all() const {
    BatchCounts c = resumed;
    c.Merge(run);
    return c;
  }
};

class BatchRunner {
 public:
  BatchRunner(BatchOptions options, SubmitFn submit, JournalWriter* out, const JournalScan* resume);
  ~BatchRunner();
  BatchRunner(const BatchRunner&) = delete;
  BatchRunner& operator=(const BatchRunner&) = delete;

  // Runs the whole job from `in` (blocking). Returns when every started record is journaled.
  BatchReport Run(std::FILE* in);

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace structure::batch
