#include "apps/batch/batch_runner.h"

#include <pthread.h>
#include <signal.h>

#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

#include "apps/batch/reorder_buffer.h"

namespace structure::batch {
namespace {

using Clock = std::chrono::steady_clock;
constexpr auto kPoll = std::chrono::milliseconds(100);
constexpr auto kRedraw = std::chrono::milliseconds(250);

struct Done {
  uint64_t index;
  std::string line;
  pipeline::Outcome outcome;
  uint64_t input_tokens;
  uint64_t output_tokens;
};

double Seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }

}  // namespace

struct BatchRunner::State {
  BatchOptions opt;
  SubmitFn submit;
  JournalWriter* out;
  const JournalScan* resume;
  Clock::time_point start = Clock::now();

  std::mutex mu;
  std::condition_variable writer_cv;  // completions arrived, or stop
  std::condition_variable window_cv;  // in-flight count or the write position moved
  std::vector<Done> completed;        // guarded by mu
  uint64_t in_flight = 0;             // started and not yet taken by the writer; guarded by mu
  uint64_t next_write = 0;            // ordered: lowest index not yet written; guarded by mu
  bool stop = false;                  // guarded by mu
  Status io_error;                    // guarded by mu

  BatchCounts run;  // writer thread only until it is joined

  int Interrupts() const { return opt.interrupts ? opt.interrupts->load() : 0; }

  void Deliver(uint64_t index, const Json& id, uint64_t line_no, const pipeline::StructureResult& r) {
    Done d{index, FormatResultLine(id, line_no, r), r.status,
           static_cast<uint64_t>(r.usage.input_tokens), static_cast<uint64_t>(r.usage.output_tokens)};
    {
      std::lock_guard<std::mutex> lock(mu);
      completed.push_back(std::move(d));
    }
    writer_cv.notify_one();
  }

  void DrawProgress(uint64_t in_flight_now) {
    BatchCounts done = resume ? resume->counts : BatchCounts{};
    done.Merge(run);
    double elapsed = Seconds(Clock::now() - start);
    double rate = elapsed > 0 ? static_cast<double>(run.total()) / elapsed : 0;
    std::string text = "\r\033[K" + FormatProgress(done, in_flight_now, rate, opt.total);
    std::fputs(text.c_str(), stderr);
    std::fflush(stderr);
  }

  void WriterLoop() {
    ReorderBuffer reorder(opt.reorder_window);
    std::vector<Done> batch;
    std::string buf;
    Status write_status;
    auto last_draw = Clock::now();
    for (;;) {
      bool stopping;
      uint64_t in_flight_now;
      {
        std::unique_lock<std::mutex> lock(mu);
        writer_cv.wait_for(lock, kPoll, [&] { return !completed.empty() || stop; });
        batch.swap(completed);
        stopping = stop;
        in_flight_now = in_flight;
      }
      buf.clear();
      for (Done& d : batch) {
        run.Add(d.outcome, d.input_tokens, d.output_tokens);
        if (opt.ordered) {
          reorder.Put(d.index, std::move(d.line));
        } else {
          buf.append(d.line);
        }
      }
      if (opt.ordered) reorder.TakeReady(&buf);
      // One write per wake-up: results that completed together are journaled together.
      if (write_status.ok()) write_status = out->Append(buf);
      {
        std::lock_guard<std::mutex> lock(mu);
        in_flight -= batch.size();
        in_flight_now = in_flight;
        next_write = reorder.next();
        if (!write_status.ok() && io_error.ok()) io_error = write_status;
      }
      window_cv.notify_all();
      batch.clear();
      if (opt.progress && Clock::now() - last_draw >= kRedraw) {
        last_draw = Clock::now();
        DrawProgress(in_flight_now);
      }
      if (stopping) break;
    }
  }

  // Waits until one more call may start; false when the job must stop instead.
  bool AwaitWindow(uint64_t index, uint64_t window) {
    std::unique_lock<std::mutex> lock(mu);
    for (;;) {
      if (Interrupts() > 0 || !io_error.ok()) return false;
      if (in_flight < opt.concurrency && (!opt.ordered || index < next_write + window)) break;
      window_cv.wait_for(lock, kPoll);
    }
    ++in_flight;
    return true;
  }

  void Drain() {
    bool cancelled = false;
    std::unique_lock<std::mutex> lock(mu);
    while (in_flight > 0) {
      if (!cancelled && Interrupts() >= 2 && opt.cancel) {
        cancelled = true;
        lock.unlock();
        opt.cancel();  // blocks until every in-flight call has been answered
        lock.lock();
        continue;
      }
      window_cv.wait_for(lock, kPoll);
    }
    stop = true;
  }
};

BatchRunner::BatchRunner(BatchOptions options, SubmitFn submit, JournalWriter* out,
                         const JournalScan* resume)
    : state_(std::make_unique<State>()) {
  state_->opt = std::move(options);
  if (state_->opt.concurrency == 0) state_->opt.concurrency = 1;
  if (state_->opt.reorder_window == 0) state_->opt.reorder_window = 4 * state_->opt.concurrency;
  state_->submit = std::move(submit);
  state_->out = out;
  state_->resume = resume;
}

BatchRunner::~BatchRunner() = default;

BatchReport BatchRunner::Run(std::FILE* in) {
  State& s = *state_;
  s.start = Clock::now();
  BatchReport report;
  if (s.resume) report.resumed = s.resume->counts;
  std::thread writer([&s] {
    sigset_t sigint;  // interrupts belong to the reading thread (it may block on stdin)
    sigemptyset(&sigint);
    sigaddset(&sigint, SIGINT);
    pthread_sigmask(SIG_BLOCK, &sigint, nullptr);
    s.WriterLoop();
  });

  std::unordered_map<std::string, uint64_t> seen;  // id key -> first line, to refuse duplicates
  char* buf = nullptr;
  size_t cap = 0;
  uint64_t line_no = 0;
  uint64_t next_index = 0;
  for (;;) {
    if (s.Interrupts() > 0) {
      report.interrupted = true;
      break;
    }
    errno = 0;
    ssize_t n = getline(&buf, &cap, in);
    if (n < 0) {
      if (errno == EINTR && !std::feof(in)) {  // a signal woke a blocking read: look at it
        std::clearerr(in);
        continue;
      }
      break;
    }
    ++line_no;
    std::string_view text(buf, static_cast<size_t>(n));
    if (IsBlankLine(text)) continue;
    BatchLine line = ParseBatchLine(text, line_no, s.opt.defaults);
    if (!line.id.is_null()) {
      auto [it, inserted] = seen.emplace(line.key, line_no);
      if (!inserted) {
        line.error = InvalidArgument("line " + std::to_string(line_no) + ": id " + line.key +
                                     " is already used on line " + std::to_string(it->second));
        line.request.reset();
        line.id = Json();
        line.key = KeyForLine(line_no);
      }
    }
    if (s.resume && s.resume->done.count(line.key) > 0) continue;
    uint64_t index = next_index;
    if (!s.AwaitWindow(index, s.opt.reorder_window)) {
      report.interrupted = true;
      break;
    }
    ++next_index;
    ++report.started;
    if (!line.request) {
      s.Deliver(index, line.id, line_no, BadLineResult(line.error));
      continue;
    }
    State* state = &s;
    s.submit(std::move(*line.request),
             [state, index, id = std::move(line.id), line_no](pipeline::StructureResult r) {
               state->Deliver(index, id, line_no, r);
             });
  }
  std::free(buf);
  s.Drain();
  s.writer_cv.notify_all();
  writer.join();
  if (s.opt.progress) {
    std::fputs("\r\033[K", stderr);
    std::fflush(stderr);
  }
  report.run = s.run;
  report.elapsed_s = Seconds(Clock::now() - s.start);
  std::lock_guard<std::mutex> lock(s.mu);
  report.io_error = s.io_error;
  if (!s.io_error.ok()) report.interrupted = true;
  return report;
}

}  // namespace structure::batch
